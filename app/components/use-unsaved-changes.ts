"use client";
// Asks before unsaved edits are lost: on unload (beforeunload), on an in-app link click (confirm(),
// prevented before the router sees it) and on Back (a history entry of its own). How each is held,
// and what is not covered: app/components/README.md.
import { useEffect, useState } from "react";

const QUESTION = "You have unsaved changes. Leave this page and lose them?";

// Every form with unsaved edits holds a token here, with its question; the page asks once,
// whatever their number, with the latest question.
const unsaved = new Map<symbol, string>();
// Set for the moment a link the person agreed to follow unloads the page, so it asks only once.
let agreedToLeave = false;
/** The history entry this page added (App Router copies its own state into it). */
const GUARD = "sheetapiUnsavedGuard";
// Whether our entry is in the history, and a Back we make ourselves (to take the entry away, or
// to leave as agreed) that the popstate listener must let pass.
let guarding = false;
let ownBack: "drop" | "leave" | null = null;
// The history's length when our entry was added: a link to a #fragment of the page adds an
// entry and fires popstate too, and that is no step back.
let guardLength = 0;

const question = () => [...unsaved.values()].at(-1) ?? QUESTION;
const onGuardEntry = () => (window.history.state as Record<string, unknown> | null)?.[GUARD] === true;

/** Puts our entry in front (unless the current one is ours already, as after a reload) and watches it. */
function armGuard() {
  if (!onGuardEntry()) window.history.pushState({ [GUARD]: true }, "");
  guarding = true;
  guardLength = window.history.length;
}

function onPopState() {
  if (ownBack) {
    // Something became unsaved again while our entry was being taken away: put it back.
    if (ownBack === "drop" && unsaved.size > 0) armGuard();
    ownBack = null;
    agreedToLeave = false;
    return;
  }
  if (window.history.length > guardLength) {
    guardLength = window.history.length;
    return;
  }
  // Back to (or Forward onto) our own entry: nothing to ask.
  if (!guarding || onGuardEntry()) return;
  if (window.confirm(question())) {
    guarding = false;
    // Going back may unload the page (an entry of another document): it must not ask again.
    agreedToLeave = true;
    ownBack = "leave";
    window.history.back();
  } else {
    armGuard();
  }
}

function onBeforeUnload(event: BeforeUnloadEvent) {
  if (agreedToLeave) return;
  event.preventDefault();
  // Older Chromium and Safari prompt only when returnValue is set.
  event.returnValue = "";
}

/** Whether a click follows a link to another page of this site in this tab. */
function leavesForAnotherPage(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return false;
  const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download") || (link.target && link.target !== "_self"))
    return false;
  const to = new URL(link.href, location.href);
  // Another site unloads the page (beforeunload asks); the same page with another #hash keeps it.
  return to.origin === location.origin && to.pathname + to.search !== location.pathname + location.search;
}

function onClick(event: MouseEvent) {
  if (!leavesForAnotherPage(event)) return;
  if (!window.confirm(question())) {
    event.preventDefault();
    return;
  }
  // A plain <a> to this site unloads the page: it must not ask a second time. Cleared after the
  // click's own navigation began, so a later reload asks again if the page is still here.
  agreedToLeave = true;
  setTimeout(() => (agreedToLeave = false), 0);
}

function hold(token: symbol, ask: string) {
  unsaved.set(token, ask);
  if (unsaved.size > 1) return;
  window.addEventListener("beforeunload", onBeforeUnload);
  // Capture on window runs before React's handlers, which next/link uses.
  window.addEventListener("click", onClick, true);
  window.addEventListener("popstate", onPopState);
  armGuard();
}

function release(token: symbol) {
  unsaved.delete(token);
  if (unsaved.size > 0) return;
  window.removeEventListener("beforeunload", onBeforeUnload);
  window.removeEventListener("click", onClick, true);
  // Still on this page, on our entry: take it away, so Back later is one step, not two. (After
  // a link the person agreed to follow, the new page's entry is current: nothing to take.) The
  // App Router may have rewritten our entry's state since (a refresh replaces it): the history's
  // length, unchanged since we added the entry, says we are still on it.
  if (guarding && (onGuardEntry() || window.history.length === guardLength)) {
    ownBack = "drop";
    window.history.back();
  } else {
    window.removeEventListener("popstate", onPopState);
  }
  guarding = false;
}

/**
 * While `hasUnsavedChanges`, leaving the page asks first (`ask`, or a question about unsaved
 * changes); saving or reverting (or unmounting) stops that.
 */
export function useUnsavedChanges(hasUnsavedChanges: boolean, ask: string = QUESTION) {
  const [token] = useState(() => Symbol("unsaved changes"));
  useEffect(() => {
    if (!hasUnsavedChanges) return;
    hold(token, ask);
    return () => release(token);
    // The question changes without taking the guard down and up again (the effect below).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasUnsavedChanges, token]);
  useEffect(() => {
    if (unsaved.has(token)) unsaved.set(token, ask);
  }, [ask, token]);
}
