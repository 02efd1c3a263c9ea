// Escalation ids are `q` and a number (q1, q2…), easy to type in a reply. Alone in its module
// so the `cfa` verbs' help can check one without loading the comment parser's dependencies.

export const ESCALATION_ID = /^q\d{1,6}$/i;
