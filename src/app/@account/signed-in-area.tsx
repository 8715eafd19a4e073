import { HeaderAuth } from "@/components/shell/header-auth";
import { currentMeSummary } from "@/features/account/queries";

/**
 * The header's account area drawn from the session, for pages that are dynamic anyway (they run a
 * guard on every request): the organization switcher and avatar arrive with the page.
 */
export async function SignedInArea() {
  return <HeaderAuth initial={await currentMeSummary()} />;
}
