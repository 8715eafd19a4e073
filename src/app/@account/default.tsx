import { HeaderAuth } from "@/components/shell/header-auth";

/** Every page not listed in this slot (the static ones): the account area asks /api/me after load. */
export default function AccountDefault() {
  return <HeaderAuth />;
}
