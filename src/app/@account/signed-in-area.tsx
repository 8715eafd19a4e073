import { HeaderAuthDrawn } from "@/components/shell/header-auth-drawn";
import { currentMeSummary } from "@/features/account/server";

/**
 * The header's account area drawn from the session, for pages that are dynamic anyway (they run a
 * guard on every request): the organization switcher and avatar arrive with the page.
 */
export async function SignedInArea() {
  return <HeaderAuthDrawn initial={await currentMeSummary()} />;
}
