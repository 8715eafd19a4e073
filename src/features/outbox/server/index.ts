import "server-only";

export { BILLING_PAGE_PATH, billingMail, type FailedCharge, mailInstant } from "./billing-mail";
