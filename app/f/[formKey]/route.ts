import { formThanks, submitForm } from "@/lib/routes/form-submit";
import { otherMethods } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

// POST /f/{formKey} - a plain HTML form appends one row to its key's tab (docs/forms.md)
export const POST = submitForm;

// GET /f/{formKey} - the hosted thank-you page a browser is sent to when the key names no address
export const GET = formThanks;

export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
