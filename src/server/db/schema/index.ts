// The database schema, one file per area; drizzle-kit and the app read it through this index.
export * from "./auth";
export * from "./billing";
export * from "./contact";
export * from "./fx";
export * from "./ops";
export * from "./organizations";
export * from "./sheets";
export * from "./workspace";
