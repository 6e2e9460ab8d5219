import { handlers } from "@/lib/auth/auth";

// GET|POST /api/auth/* - next-auth: sign-in, OAuth callback, sign-out, session
export const { GET, POST } = handlers;
