"use client";
// A modal dialog as the WAI-ARIA dialog pattern asks: focus moves into it when it opens, Tab and
// Shift+Tab stay inside it, Escape asks to close it, the page behind it does not scroll, and
// closing it gives focus back to the control that opened it.
import { useEffect, useRef, type RefObject } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * `open`: whether the dialog is shown; `dialog`: its element; `first`: what takes focus when it
 * opens; `onEscape`: called on Escape (it decides whether to close, e.g. after asking);
 * `returnTo`: what takes focus when it closes, when the control that opened it cannot (a submit
 * button disabled while the form was sent has lost focus by then).
 */
export function useModalDialog(
  open: boolean,
  dialog: RefObject<HTMLElement | null>,
  first: RefObject<HTMLElement | null>,
  onEscape: () => void,
  returnTo?: RefObject<HTMLElement | null>,
) {
  // The latest handler, without re-running the effect (which would move focus again) each render.
  const escape = useRef(onEscape);
  useEffect(() => {
    escape.current = onEscape;
  });
  useEffect(() => {
    if (!open) return;
    // Closed, the dialog gives focus back to where it was (the button that opened it).
    const active =
      document.activeElement instanceof HTMLElement && document.activeElement !== document.body
        ? document.activeElement
        : null;
    const fallback = returnTo?.current;
    first.current?.focus({ preventScroll: true });
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    function onKeyDown(e: KeyboardEvent) {
      const root = dialog.current;
      if (!root) return;
      if (e.key === "Escape") {
        e.preventDefault();
        escape.current();
        return;
      }
      if (e.key !== "Tab") return;
      const items = [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      const head = items[0];
      const tail = items[items.length - 1];
      if (!head || !tail) return;
      const inside = root.contains(document.activeElement);
      if (e.shiftKey && (document.activeElement === head || !inside)) {
        e.preventDefault();
        tail.focus();
      } else if (!e.shiftKey && (document.activeElement === tail || !inside)) {
        e.preventDefault();
        head.focus();
      }
    }
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.body.style.overflow = overflow;
      const back = active?.isConnected ? active : fallback;
      back?.focus({ preventScroll: true });
    };
  }, [open, dialog, first, returnTo]);
}
