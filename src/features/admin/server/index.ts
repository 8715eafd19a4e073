// The admin feature's server-only public surface (queries, services, server components).
export { CurrencyScreen, loadCurrencyScreen } from "../currency/currency-screen";
export { OverviewScreen } from "../overview/overview-screen";
export { loadUsersScreen, UsersScreen } from "../users/users-screen";
export { jobQueue, loadOverview, type OverviewData } from "./overview";
