// The auth feature's public surface for pages and other features: what is safe in the
// browser and on the server. Server-only queries and services: ./server/index.ts.
export { AuthCard } from "./auth-card";
export { ConfirmCodeForm, ConfirmLinkCard } from "./confirm-email";
export { FactorTwoForm } from "./factor-two-form";
export { ForgotPasswordForm } from "./forgot-password-form";
export { PasskeySignIn } from "./passkey-sign-in";
export { ResetPasswordForm } from "./reset-password-form";
export { SignInForm } from "./sign-in-form";
export { SignUpForm } from "./sign-up-form";
