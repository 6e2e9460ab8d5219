"use client";
// The fragment of the page that sent the browser to sign in (`/dashboard/sheets/x#try-it`): the
// browser keeps it through the redirect here, but never sends it to the server, so the sign-in
// form carries it and the return lands on the same section.
import { useEffect, useRef } from "react";

export function FragmentField() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (field.current) field.current.value = window.location.hash;
  }, []);
  return <input ref={field} type="hidden" name="fragment" defaultValue="" />;
}
