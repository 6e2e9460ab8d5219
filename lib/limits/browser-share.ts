// The share of each of the account's windows a browser key's requests may fill; the rest is kept
// for the account's secret keys (README.md). A module of its own: the browser key form shows it.
export const BROWSER_SHARE = 0.8;
