import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth/auth";
import { cancelledAtGoogle } from "@/lib/auth/sign-in-cancel";

// GET|POST /api/auth/* - next-auth: sign-in, OAuth callback, sign-out, session; a sign-in
// cancelled on Google's screen is answered first (lib/auth/sign-in-cancel.ts)
export const GET = async (req: NextRequest) => cancelledAtGoogle(req) ?? handlers.GET(req);
export const { POST } = handlers;
