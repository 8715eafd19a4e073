// The account feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { PasskeySettings } from "./passkey-settings";
export { DeleteAccountForm, EmailForm, NameForm, PasswordForm, SessionList } from "./profile-forms";
export { SecurityEventList, TwoFactorSettings, VerifyEmailNotice } from "./security-forms";
