export { type SavableCalculation, SaveCalculation, SignedOutForSure } from "./save-calculation";
