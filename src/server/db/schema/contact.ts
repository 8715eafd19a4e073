import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { CONTACT_TOPICS } from "../../../core/contact/topics";
import { oneOf } from "./checks";

export const contactTopics = CONTACT_TOPICS;

/** Messages sent through /contact; read and marked handled in the admin inbox. */
export const contactMessages = pgTable(
  "contact_messages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    topic: text("topic", { enum: contactTopics }).notNull(),
    message: text("message").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    handledAt: timestamp("handled_at", { withTimezone: true }),
  },
  (table) => [
    index("contact_messages_created_at_idx").on(table.createdAt),
    check("contact_messages_topic_check", oneOf(table.topic, contactTopics)),
  ],
);
