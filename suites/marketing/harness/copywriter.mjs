#!/usr/bin/env node
/**
 * The scripted copywriter: a harness with no model. It reads the brief in the workspace
 * (briefs/<piece>.md, its "Brief data" block: format, key messages, link, limits) and assembles the
 * key messages into the format the brief asks for, keeping to the limits. It shows the suite
 * running end to end, and what assembling approved messages earns: the constraints pass, while
 * voice and persuasiveness are left to the rubric.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { pieceFromStdin } from './brief.mjs';

const piece = pieceFromStdin();
const text = readFileSync(`briefs/${piece}.md`, 'utf8');
const data = /```yaml\n([\s\S]*?)\n```/.exec(text)?.[1];
if (data === undefined) {
  process.stderr.write(`briefs/${piece}.md has no brief data (a yaml block)\n`);
  process.exit(1);
}
const brief = parse(data);
const { messages, limits } = brief;

/** Whole sentences from the start of `parts` while the text stays within `max` characters. */
function keepWithin(parts, max, join = ' ') {
  const kept = [];
  for (const part of parts) {
    if ([...kept, part].join(join).length > max) break;
    kept.push(part);
  }
  return kept.join(join);
}

/** Paragraphs of two messages each. */
const paragraphs = (list) => {
  const out = [];
  for (let i = 0; i < list.length; i += 2) out.push(list.slice(i, i + 2).join(' '));
  return out;
};

function email() {
  const [opening, ...rest] = messages;
  const body = ['Hi there,', ...paragraphs(messages), `[${brief.cta}](${brief.link})`, 'The Ledgerly team'];
  const copy = { subject: keepWithin([opening.replace(/\.$/, '')], limits.subject_chars) };
  if (limits.preheader_chars !== undefined) copy.preheader = keepWithin(rest, limits.preheader_chars);
  return { ...copy, body: body.join('\n\n'), cta_url: brief.link };
}

function landingHero() {
  const [headline, subheadline, ...rest] = messages;
  return {
    headline: headline.replace(/\.$/, ''),
    subheadline: `${subheadline} ${rest.at(-1)}`,
    bullets: rest.slice(0, 3).map((b) => b.replace(/\.$/, '')),
    cta: { label: brief.cta, href: brief.link },
  };
}

function searchAds() {
  const short = messages.filter((m) => !m.endsWith('.') && m.length <= limits.headline_chars);
  const long = messages.filter((m) => m.endsWith('.') && m.length <= limits.description_chars);
  return {
    headlines: short.slice(0, limits.headlines[1]),
    descriptions: long.slice(0, limits.descriptions[1]),
    final_url: brief.link,
  };
}

function social() {
  const room = limits.x_chars - brief.links.x.length - 1;
  return {
    linkedin: [...paragraphs(messages), brief.links.linkedin].join('\n\n'),
    x: `${keepWithin(messages, room)} ${brief.links.x}`,
  };
}

const FORMATS = { email, 'landing-hero': landingHero, 'search-ads': searchAds, social };
const write = FORMATS[brief.format];
if (write === undefined) {
  process.stderr.write(`no template for format ${brief.format}\n`);
  process.exit(1);
}
process.stdout.write(`${JSON.stringify(write(), null, 2)}\n`);
