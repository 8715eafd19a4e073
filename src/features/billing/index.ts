// Billing's public face: what app routes and other product areas use. Everything else in this
// folder (the checkout's place/charge/settle steps, the subscription writes) is internal.
export {
  invoiceListQuery,
  invoiceListSchema,
  invoiceResponse,
  invoiceSchema,
  listInvoicesResponse,
} from "./api/invoices";
export { receiptKeysResponse, verifyReceiptResponse } from "./api/receipts";
export { BillingPage } from "./components/billing-page";
export { BillingSection } from "./components/billing-section";
export { CheckoutForm } from "./components/checkout-form";
export { CouponAdmin } from "./components/coupon-admin";
export { InvoiceAdmin, RevenueSummary } from "./components/invoice-admin";
export { InvoiceList, InvoiceView } from "./components/invoice-view";
export { OrderSelection } from "./components/order-selection";
export { PastDueBanner } from "./components/past-due-banner";
export { ReceiptView } from "./components/receipt-view";
export { formatMinor } from "./format";
export { newIdempotencyKey } from "./idempotency";
export { type BillingData, loadBilling, loadReceipt, type ReceiptFile } from "./queries";
export { buildQuote, parseSelection } from "./quote";
export { verifyReceiptBody } from "./schemas";
export { loadBillingPage } from "./server/billing-page";
export { ClockRefused, runTestClock } from "./server/clock";
export { COUPON_LIST_LIMIT, listCoupons } from "./server/coupons";
export {
  canSeeInvoices,
  findInvoice,
  type InvoiceDocument,
  invoiceFileResponse,
  listInvoices,
  revenueSummary,
  searchInvoices,
} from "./server/invoices";
export { lastBillingDetails, pendingOrder } from "./server/queries";
export { receiptKeyOverview } from "./server/receipt-keys";
export { sellerDetails } from "./server/seller";
export { handleStripeWebhook } from "./server/stripe-webhook";
export { getSubscription } from "./server/subscription";
