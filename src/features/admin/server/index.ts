// The admin feature's server-only public surface (queries, services, server components).
export { CurrencyScreen } from "../currency/currency-screen";
export { OverviewScreen } from "../overview/overview-screen";
export { UsersScreen } from "../users/users-screen";
