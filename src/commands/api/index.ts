/** `foodctl api`: any endpoint of the API, with the profile's URL and token (as `gh api` does for GitHub's). */
import { GLOBALS } from "../globals.js";
import { arg, commandNoun, curlOption, option, repeatedOption, verb } from "../spec.js";

const api = verb("api", "send a request to any endpoint of the API, with the profile's URL, token and --user; print the answer", {
  globals: GLOBALS.request,
  args: { path: arg("<path>", "under the API's /v2 root (intake/1002, /v2/intake/1002), or a full URL on the API's own origin") },
  options: {
    method: option("-X, --method <method>", "the HTTP method (default GET, or POST when fields or --input are given)"),
    field: repeatedOption(
      "-F, --field <key=value>",
      "a typed field: true, false, null and numbers as themselves, @file for a file's text (@- stdin);" +
        " key[sub]=value nests, key[]=value builds a list, key[] alone is an empty list",
    ),
    rawField: repeatedOption(
      "-f, --raw-field <key=value>",
      "a string field (key[sub] and key[] as with -F); fields go in the query of a GET, else in a JSON body",
    ),
    header: repeatedOption(
      "-H, --header <header>",
      "an extra request header, 'Name: value' (not Authorization: the token is the profile's)",
    ),
    input: option("--input <file>", "the request body from a file (- for stdin); fields then go in the query"),
    include: option("-i, --include", "print the answer's status line and headers before its body"),
    dryRun: option("--dry-run", "print the request that would be sent and send nothing"),
    curl: curlOption(),
  },
  examples: `
    foodctl api intake/1002
    foodctl api history/getIntakesList -X GET -f date_from='2026/11/01, 00:00:00' -f date_to='2026/11/30, 23:59:59'
    foodctl api nutrition/confirm/quantity -F imageId=1001 -F quantity=320
    foodctl api nutrition/confirm/quantity -F imageId=1002 -F 'quantity[1]=150' -F 'salt[1]=low'
    foodctl api intake/1005/display_image -X DELETE --include
    foodctl api nutrition/recipe/nutritionalInfo --input recipe.json
    foodctl api intake/1002 | jq .intake_info.serving_size
    foodctl api nutrition/confirm/quantity -F imageId=1001 -F quantity=320 --dry-run --curl
  `,
  notes: [
    "Requests sent with foodctl api are not recorded in the journal, so undo cannot reach them:" +
      " change intakes with the intake and display-image commands when the change should be undoable.",
    "Retries are as for every command (network errors, timeouts, 429, 502/503/504): give --retries 0 for an endpoint that is not safe to send twice.",
  ],
  run: async (ctx, options) => (await import("./api.js")).apiCommand(ctx, options),
});

export const apiNoun = commandNoun(api);
