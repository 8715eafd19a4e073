/** The longest cancellation reason kept (the `subscriptions.cancel_reason` CHECK). */
export const MAX_CANCEL_REASON = 500;
/** The most invoices and credit notes the billing page lists. */
export const BILLING_PAGE_DOCUMENTS = 50;
