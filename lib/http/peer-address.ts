/**
 * The address of the peer that connected (the client, or the nearest proxy), for per-address
 * allowances: a route handler never sees the socket. lib/http/raw-requests.ts sets it on every
 * request before Next.js sees it, so a value a client sends is always replaced.
 */
export const PEER_ADDRESS_HEADER = "x-sheetapi-peer-address";
