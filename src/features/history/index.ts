export { type SavableCalculation, SaveCalculation } from "./save-calculation";
