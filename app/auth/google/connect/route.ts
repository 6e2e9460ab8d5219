import { connectGoogle } from "@/lib/auth/grant-flow";
import { currentUser } from "@/lib/auth/session";
import { otherMethods, route } from "@/lib/routes/route";

export const dynamic = "force-dynamic";

// GET /auth/google/connect - Google's consent for the Picker (drive.file), then the dashboard
export const GET = route(async () => {
  const user = await currentUser();
  if (!user)
    return new Response(null, {
      status: 302,
      headers: { Location: `/signin?callbackUrl=${encodeURIComponent("/auth/google/connect")}` },
    });
  return connectGoogle(user);
});
export const { POST, PUT, PATCH, DELETE } = otherMethods(["GET"]);
