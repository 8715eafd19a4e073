// The pricing feature's server-only public surface (queries, services, server components).
export { type CurrencyPrices, pricesByCurrency } from "../prices";
