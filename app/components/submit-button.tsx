"use client";
// A form's submit button that says the form is being sent (server actions can take seconds:
// a plan change, the way to Google) and cannot be pressed twice meanwhile.
import { useFormStatus } from "react-dom";

export function SubmitButton({
  children,
  pendingText,
  className,
  testId,
}: {
  children: React.ReactNode;
  pendingText: string;
  className?: string;
  testId?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending}
      data-testid={testId}
      className={`${className ?? ""} disabled:cursor-wait disabled:opacity-70`}
    >
      {pending ? pendingText : children}
    </button>
  );
}
