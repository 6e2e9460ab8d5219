"use client";
// Asks before unsaved edits are lost. A reload, a closed tab or an address typed in the browser
// unloads the page: the browser's own "Leave site?" prompt (beforeunload) covers those. A link
// inside the app is followed by the App Router without unloading anything, and the router has no
// way to hold a navigation, so a click on such a link asks with confirm() and, if declined, is
// prevented before the router sees it (next/link skips clicks whose default was prevented).
// Not covered: the browser's back and forward buttons within the app (popstate cannot be held)
// and navigations started from code, such as a form action that redirects.
import { useEffect } from "react";

const QUESTION = "You have unsaved changes. Leave this page and lose them?";

// Every form with unsaved edits holds a token here; the page asks once, whatever their number.
const unsaved = new Set<symbol>();
// Set for the moment a link the person agreed to follow unloads the page, so it asks only once.
let agreedToLeave = false;

function onBeforeUnload(event: BeforeUnloadEvent) {
  if (agreedToLeave) return;
  event.preventDefault();
  // Older Chromium and Safari prompt only when returnValue is set.
  event.returnValue = "";
}

/** Whether a click follows a link to another page of this site in this tab. */
function leavesForAnotherPage(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download") || (link.target && link.target !== "_self")) return false;
  const to = new URL(link.href, location.href);
  // Another site unloads the page (beforeunload asks); the same page with another #hash keeps it.
  return to.origin === location.origin && to.pathname + to.search !== location.pathname + location.search;
}

function onClick(event: MouseEvent) {
  if (!leavesForAnotherPage(event)) return;
  if (!window.confirm(QUESTION)) {
    event.preventDefault();
    return;
  }
  // A plain <a> to this site unloads the page: it must not ask a second time. Cleared after the
  // click's own navigation began, so a later reload asks again if the page is still here.
  agreedToLeave = true;
  setTimeout(() => (agreedToLeave = false), 0);
}

function hold(token: symbol) {
  unsaved.add(token);
  if (unsaved.size > 1) return;
  window.addEventListener("beforeunload", onBeforeUnload);
  // Capture on window runs before React's handlers, which next/link uses.
  window.addEventListener("click", onClick, true);
}

function release(token: symbol) {
  unsaved.delete(token);
  if (unsaved.size > 0) return;
  window.removeEventListener("beforeunload", onBeforeUnload);
  window.removeEventListener("click", onClick, true);
}

/** While `hasUnsavedChanges`, leaving the page asks first; saving or reverting (or unmounting) stops that. */
export function useUnsavedChanges(hasUnsavedChanges: boolean) {
  useEffect(() => {
    if (!hasUnsavedChanges) return;
    const token = Symbol("unsaved changes");
    hold(token);
    return () => release(token);
  }, [hasUnsavedChanges]);
}
