/** What a help topic is made of (src/topics/index.ts lists them and prints one). */
import type { HelpTopicName } from "../help.js";

export interface TopicItem {
  term: string;
  description: string;
}

export interface TopicSection {
  /** None for the opening section. */
  heading?: string;
  paragraphs?: readonly string[];
  items?: readonly TopicItem[];
  /** A shell transcript, one command a line, as the command specs write examples. */
  examples?: string;
}

export interface HelpTopic {
  name: HelpTopicName;
  summary: string;
  sections: readonly TopicSection[];
}

/** Text written over several source lines, as one paragraph. */
export const para = (text: string): string => text.replace(/\s+/g, " ").trim();
