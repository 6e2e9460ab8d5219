// next-auth (Auth.js v5): Google sign-in, accounts in Postgres through the Drizzle adapter,
// database sessions. In local mode and tests the same Google provider points at emulators/google.
import { DrizzleAdapter } from "@auth/drizzle-adapter";
import NextAuth from "next-auth";
import type { Adapter } from "next-auth/adapters";
import Google from "next-auth/providers/google";
import { getDb } from "@/db/client";
import { accounts, sessions, users, verificationTokens } from "@/db/schema";
import { config } from "@/lib/env";

/** Sessions last a week and slide forward at most once a day. */
export const SESSION_MAX_AGE_SECONDS = 7 * 24 * 3600;

function tokenlessAdapter(): Adapter {
  const base = DrizzleAdapter(getDb(), {
    usersTable: users,
    accountsTable: accounts,
    sessionsTable: sessions,
    verificationTokensTable: verificationTokens,
  });
  return {
    ...base,
    // Sign-in needs no Google tokens afterwards; keeping them would leave live credentials in
    // plain text. Sheet grants are stored separately, encrypted.
    linkAccount: (account) =>
      base.linkAccount!({ ...account, access_token: undefined, refresh_token: undefined, id_token: undefined }),
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => {
  const cfg = config();
  return {
    adapter: tokenlessAdapter(),
    secret: cfg.secrets.authSecret,
    trustHost: true,
    session: { strategy: "database", maxAge: SESSION_MAX_AGE_SECONDS, updateAge: 24 * 3600 },
    providers: [
      Google({
        clientId: cfg.google.oauth.clientId,
        clientSecret: cfg.google.oauth.clientSecret,
        issuer: cfg.google.oauth.issuer,
        authorization: { params: { scope: "openid email profile" } },
      }),
    ],
    pages: { signIn: "/signin", error: "/signin" },
    callbacks: {
      // What the pages need, nothing more: this is also what GET /api/auth/session answers, so
      // the session token (HttpOnly for a reason) and the user row (plan, billing) stay out.
      session: ({ session, user }) =>
        ({
          expires: session.expires,
          user: { id: user.id, email: user.email, name: user.name ?? null },
        }) as typeof session,
    },
  };
});
