/**
 * The share of each of the account's windows a browser key's requests may fill. The rest is kept
 * for the account's secret keys: a publishable key is public (anyone can copy it out of a page
 * and send its listed Origin from a script), and must never lock its owner's servers out.
 * (A module of its own: the key form in the browser shows it too.)
 */
export const BROWSER_SHARE = 0.8;
