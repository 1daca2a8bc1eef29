// Writes public/countries/{ru,en,zh}.json (SPEC §3 Country list: name and code, one static file
// per language) from the ISO 3166-1 alpha-2 codes below and the language's own country names
// (Intl.DisplayNames, Unicode CLDR). Run it again after changing the list: node scripts/countries.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CODES = `AD AE AF AG AI AL AM AO AR AT AU AW AZ BA BB BD BE BF BG BH BI BJ BM BN BO BR BS BT BW BY BZ
CA CD CF CG CH CI CL CM CN CO CR CU CV CY CZ DE DJ DK DM DO DZ EC EE EG ER ES ET FI FJ FM FR GA GB GD GE GH
GM GN GQ GR GT GW GY HK HN HR HT HU ID IE IL IN IQ IR IS IT JM JO JP KE KG KH KI KM KN KP KR KW KZ LA LB LC
LI LK LR LS LT LU LV LY MA MC MD ME MG MH MK ML MM MN MO MR MT MU MV MW MX MY MZ NA NE NG NI NL NO NP NR NZ
OM PA PE PG PH PK PL PS PT PW PY QA RO RS RU RW SA SB SC SD SE SG SI SK SL SM SN SO SR SS ST SV SY SZ TD TG
TH TJ TL TM TN TO TR TT TV TW TZ UA UG US UY UZ VA VC VE VN VU WS YE ZA ZM ZW`.split(/\s+/);

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'countries');
fs.mkdirSync(out, { recursive: true });
for (const locale of ['ru', 'en', 'zh']) {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  const collator = new Intl.Collator(locale);
  const list = CODES.map((code) => ({ name: names.of(code) ?? code, code })).sort((a, b) => collator.compare(a.name, b.name));
  fs.writeFileSync(path.join(out, `${locale}.json`), `${JSON.stringify(list, null, 0).replaceAll('},{', '},\n{')}\n`);
}
