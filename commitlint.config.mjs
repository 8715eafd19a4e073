// Commit messages: a `type(scope): summary` subject of at most 72 characters; the why and the
// figures go in the body, which has no line-length rule (tables and commands keep their width).
// `npm run lint:commits` checks every commit since the convention was adopted.
export default {
  extends: ["@commitlint/config-conventional"],
  rules: {
    "header-max-length": [2, "always", 72],
    "subject-case": [0],
    "body-max-line-length": [0],
    "footer-max-line-length": [0],
  },
};
