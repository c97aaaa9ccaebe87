/**
 * `foodctl help <topic>`: what holds across commands (the environment, exit codes, output
 * formats, dates), written once in this folder; `npm run docs` turns the same text into
 * docs/manual/foodctl-<topic>.md and man/foodctl-<topic>.7. Loaded only when a topic is shown.
 */
import { exampleLines, examplesOf, wrapText } from "../help.js";
import { dates } from "./dates.js";
import { environment } from "./environment.js";
import { exitCodes } from "./exitCodes.js";
import { formatting } from "./formatting.js";
import type { HelpTopic, TopicItem } from "./topic.js";

export type { HelpTopic, TopicItem, TopicSection } from "./topic.js";

export const HELP_TOPICS: readonly HelpTopic[] = [environment, exitCodes, formatting, dates];

/** Items as two columns when the descriptions keep 40 columns, else each description under its term. */
function itemLines(items: readonly TopicItem[], width: number): string[] {
  const termWidth = Math.max(...items.map((item) => item.term.length));
  if (width - termWidth - 4 >= 40) {
    return items.flatMap((item) =>
      wrapText(item.description, width - termWidth - 4).map(
        (line, index) => `  ${(index === 0 ? item.term : "").padEnd(termWidth)}  ${line}`,
      ),
    );
  }
  return items.flatMap((item) => [`  ${item.term}`, ...wrapText(item.description, width - 6).map((line) => `      ${line}`)]);
}

/** A topic as `foodctl help <topic>` prints it, at `width` columns. */
export function topicText(topic: HelpTopic, width: number): string {
  const lines = [...wrapText(`foodctl ${topic.name}: ${topic.summary}`, width), ""];
  for (const section of topic.sections) {
    if (section.heading) lines.push(`${section.heading}:`);
    const indent = section.heading ? "  " : "";
    for (const paragraph of section.paragraphs ?? [])
      lines.push(...wrapText(paragraph, width - indent.length).map((line) => indent + line), "");
    if (section.items) lines.push(...itemLines(section.items, width), "");
    if (section.examples) lines.push(...examplesOf(section.examples).flatMap((example) => exampleLines(example, width)), "");
  }
  lines.push(`see: man foodctl-${topic.name}`);
  return `${lines.join("\n")}\n`;
}
