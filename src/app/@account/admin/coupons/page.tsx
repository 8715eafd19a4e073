export { SignedInArea as default } from "../../signed-in-area";
