import "server-only";

export { billingMail, type FailedCharge, mailInstant } from "./billing-mail";
