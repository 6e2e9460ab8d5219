// Customer portal configurations (`/v1/billing_portal/configurations`) in Stripe's shape: what
// the portal lets a customer change and how a plan change is prorated.
import type { Form, FormValue } from "./form";
import { invalid } from "./http";
import { newId, type Obj } from "./model";

const PRORATIONS = ["always_invoice", "create_prorations", "none"];
const asForm = (value: FormValue | undefined, param: string): Form => {
  if (value === undefined || value === "") return Object.create(null) as Form;
  if (typeof value !== "object" || Array.isArray(value)) throw invalid("Invalid object", param);
  return value;
};
const flag = (value: FormValue | undefined, param: string, required: boolean): boolean => {
  if (value === undefined && !required) return false;
  if (value !== "true" && value !== "false")
    throw invalid(
      value === undefined ? `Missing required param: ${param}.` : `Invalid boolean: ${String(value)}`,
      param,
    );
  return value === "true";
};
const choice = (value: FormValue | undefined, allowed: string[], fallback: string, param: string): string => {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !allowed.includes(value))
    throw invalid(`Invalid ${param.split("[").pop()!.replace("]", "")}: must be one of ${allowed.join(", ")}`, param);
  return value;
};

/** A configuration from `POST /v1/billing_portal/configurations`; prices are checked by `priceExists`. */
export function portalConfiguration(
  form: Form,
  now: number,
  priceExists: (id: string) => boolean,
  metadata: Record<string, string>,
): Obj {
  if (form.business_profile === undefined)
    throw invalid("Missing required param: business_profile.", "business_profile");
  if (form.features === undefined) throw invalid("Missing required param: features.", "features");
  const profile = asForm(form.business_profile, "business_profile");
  const features = asForm(form.features, "features");
  const update = asForm(features.subscription_update, "features[subscription_update]");
  const cancel = asForm(features.subscription_cancel, "features[subscription_cancel]");
  const updateOn =
    features.subscription_update !== undefined && flag(update.enabled, "features[subscription_update][enabled]", true);
  const products = update.products === undefined || update.products === "" ? [] : update.products;
  if (!Array.isArray(products)) throw invalid("Invalid array", "features[subscription_update][products]");
  const productList = products.map((p, i) => {
    const entry = asForm(p, `features[subscription_update][products][${i}]`);
    const prices = entry.prices;
    if (
      typeof entry.product !== "string" ||
      !Array.isArray(prices) ||
      prices.some((id) => typeof id !== "string" || !priceExists(id))
    ) {
      throw invalid(
        "Each product needs a product id and prices that exist.",
        `features[subscription_update][products][${i}]`,
      );
    }
    return { prices: prices as string[], product: entry.product };
  });
  const allowed =
    update.default_allowed_updates === undefined || update.default_allowed_updates === ""
      ? []
      : update.default_allowed_updates;
  if (
    !Array.isArray(allowed) ||
    allowed.some((a) => typeof a !== "string" || !["price", "promotion_code", "quantity"].includes(a))
  ) {
    throw invalid("Invalid default_allowed_updates", "features[subscription_update][default_allowed_updates]");
  }
  if (updateOn && (update.default_allowed_updates === undefined || update.products === undefined)) {
    throw invalid(
      "Missing required param: features[subscription_update][products].",
      "features[subscription_update][products]",
    );
  }
  return {
    id: newId("bpc"),
    object: "billing_portal.configuration",
    active: true,
    application: null,
    business_profile: {
      headline: typeof profile.headline === "string" && profile.headline ? profile.headline : null,
      privacy_policy_url: typeof profile.privacy_policy_url === "string" ? profile.privacy_policy_url : null,
      terms_of_service_url: typeof profile.terms_of_service_url === "string" ? profile.terms_of_service_url : null,
    },
    created: now,
    default_return_url:
      typeof form.default_return_url === "string" && form.default_return_url ? form.default_return_url : null,
    features: {
      customer_update: { allowed_updates: [], enabled: false },
      invoice_history: {
        enabled: flag(
          asForm(features.invoice_history, "features[invoice_history]").enabled,
          "features[invoice_history][enabled]",
          features.invoice_history !== undefined,
        ),
      },
      payment_method_update: {
        enabled: flag(
          asForm(features.payment_method_update, "features[payment_method_update]").enabled,
          "features[payment_method_update][enabled]",
          features.payment_method_update !== undefined,
        ),
      },
      subscription_cancel: {
        cancellation_reason: { enabled: false, options: [] },
        enabled:
          features.subscription_cancel !== undefined &&
          flag(cancel.enabled, "features[subscription_cancel][enabled]", true),
        mode: choice(
          cancel.mode,
          ["at_period_end", "immediately"],
          "at_period_end",
          "features[subscription_cancel][mode]",
        ),
        proration_behavior: choice(
          cancel.proration_behavior,
          PRORATIONS,
          "none",
          "features[subscription_cancel][proration_behavior]",
        ),
      },
      subscription_update: {
        default_allowed_updates: allowed as string[],
        enabled: updateOn,
        products: productList,
        proration_behavior: choice(
          update.proration_behavior,
          PRORATIONS,
          "none",
          "features[subscription_update][proration_behavior]",
        ),
      },
    },
    is_default: false,
    livemode: false,
    login_page: { enabled: false, url: null },
    metadata,
    updated: now,
  };
}
