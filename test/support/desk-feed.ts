/**
 * A seeded feed of news-like messages for the story desk tests: stories of one to eight copies
 * (agency datelines, edited wording, longer versions), titles from a few words to long ones,
 * sources on several hosts, English, Russian and Ukrainian, one hostile title. Written here,
 * never copied from a real corpus.
 */

import { rng } from './engine.js';

export interface FeedMessage {
  id: string;
  title?: string;
  text: string;
  url?: string;
  lang?: string;
  ts: string;
}

const PLACES = [
  'Lisbon',
  'Kraków',
  'Nairobi',
  'Osaka',
  'Valparaíso',
  'Tromsø',
  'Lviv',
  'Tbilisi',
  'Quebec',
  'Dakar',
  'Hobart',
  'Cusco',
  'Bergen',
  'Tallinn',
  'Porto',
  'Accra',
  'Leeds',
  'Bilbao',
  'Riga',
  'Perth',
];
const SUBJECTS = [
  'the city council',
  'the port authority',
  'a regional court',
  'the state railway',
  'the water utility',
  'a teachers union',
  'the health ministry',
  'local farmers',
  'the central bank',
  'a wind power company',
  'the football federation',
  'the national museum',
  'a ferry operator',
  'the university hospital',
  'the airport operator',
  'fishermen',
  'the forestry service',
  'a steel maker',
];
const ACTIONS = [
  'approved a plan to',
  'voted against a proposal to',
  'announced it would',
  'asked the government to',
  'signed a contract to',
  'postponed a decision to',
  'promised residents it would',
  'was ordered to',
];
const OBJECTS = [
  'rebuild the old harbour wall',
  'cut ticket prices for students',
  'close three rural branches',
  'double the number of night buses',
  'raise salaries by six percent',
  'replace lead water pipes in the centre',
  'open a new cancer clinic',
  'ban cars from the historic quarter',
  'build a solar farm on a former landfill',
  'dredge the river mouth',
  'reopen the mountain pass',
  'hire four hundred nurses',
  'sell its stake in the shipyard',
  'plant a million trees along the motorway',
  'restore the cathedral roof',
  'extend the tram line to the suburbs',
];
const DETAILS = [
  'The work is expected to cost {n} million euros and to take {m} years.',
  'Opposition members said the decision came too late and ignored {n} thousand signatures.',
  'About {n} hundred people gathered outside the building while the vote took place.',
  'Officials said the first results would be visible within {m} months.',
  'Critics warned that the budget for next year was already short by {n} million.',
  'The measure follows a report that found {n} percent of the network in poor condition.',
  'Residents will be able to comment on the plan until the end of the month.',
  'Unions said they would strike for {m} days if the plan went ahead unchanged.',
  'A spokesperson declined to say how the project would be financed.',
  'The regional governor welcomed the move and promised {n} million in support.',
];
const HOSTS = [
  'https://www.wire.example/{y}/story-{i}',
  'https://daily-courier.example/news/{i}',
  'https://www.morning-post.example/world/{i}.html',
  'https://regional.example/a/{i}?ref=feed',
  'https://m.citypaper.example/{i}',
];
const RU = [
  'Городской совет утвердил план реконструкции набережной, работы начнутся весной и продлятся {m} года.',
  'Министерство здравоохранения объявило о наборе {n} сотен медсестер для сельских больниц региона.',
  'Железнодорожная компания повысит цены на билеты в пригородных поездах на {n} процентов с января.',
];
const UK = [
  'Міська рада ухвалила план ремонту мосту через річку, роботи триватимуть {m} роки і коштуватимуть {n} мільйонів гривень.',
  'Фермери з півдня країни підписали угоду про будівництво сонячної електростанції на {n} гектарах.',
  'Національний музей відкрив нову залу після реставрації, яка тривала {m} роки.',
];

// The body of each story: words drawn at random from this list, so that no two stories share
// more than chance (the lead sentence reads as news; the rest need only look like text).
const WORDS = (
  'account agency agreement analysts annual appeal april arrest assembly audit autumn average ' +
  'balance ballot barrier battery benefit border bridge brigade budget cabinet campaign canal ' +
  'capital cargo carrier ceasefire census chamber charter chemical circuit citizens climate ' +
  'coalition coast column commission committee community company complaint concert contract ' +
  'copper corridor council county court crew crisis critics currency customs damage deadline ' +
  'debt decade defence deficit delegation demand deposit deputy diesel director district ' +
  'doctors drought economy election electricity embassy emergency engineers estate evidence ' +
  'exports factory families farmers festival finance fishing flight forecast forest fraud ' +
  'freight fuel funding galleries garrison glacier governor grain growth harbour harvest ' +
  'highway hospital household housing hunger inflation inquiry insurance interest investors ' +
  'island journalists judge jury labour landlords lawyers leaders league license loans lorry ' +
  'magistrate managers margin market mayor measles merchants migrants militia minister mining ' +
  'monsoon mortgage museum negotiators network nurses ocean officers offshore opposition ' +
  'orchestra output parliament passengers patients pension pilots pipeline plant police ' +
  'pollution port poverty premier prices prison profit protest province quarry railway ' +
  'reactor referendum refinery reform refugees regulator rent reserve residents retailers ' +
  'revenue river rivals salaries satellite savings schools scientists season senate shares ' +
  'shipyard shortage shelter soldiers spending stadium station steel storm strike students ' +
  'subsidy suburbs supply surgeons survey tariff taxes teachers tenants territory timber ' +
  'tourism trade traffic tribunal tunnel turbine union university valley vessel veterans ' +
  'villages volunteers voters wages warehouse wetlands wheat wildfire workers'
).split(' ');

export const HOSTILE_TITLE =
  '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script> Rates & "quotes"';

/** `stories` stories, in time order from `start`, copies a few minutes after their original. */
export function deskFeed(
  seed: number,
  stories: number,
  start = Date.parse('2026-11-20T06:00:00Z'),
): FeedMessage[] {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const fill = (s: string) =>
    s
      .replace('{n}', String(2 + Math.floor(random() * 90)))
      .replace('{m}', String(2 + Math.floor(random() * 7)));
  const out: FeedMessage[] = [];
  for (let i = 0; i < stories; i++) {
    const t0 = start + i * 7 * 60_000;
    const lang = i % 17 === 5 ? 'ru' : i % 17 === 11 ? 'uk' : 'en';
    let text: string;
    let title: string;
    if (lang === 'en') {
      const place = pick(PLACES);
      const subject = pick(SUBJECTS);
      const object = pick(OBJECTS);
      const body: string[] = [];
      for (let k = 0; k < 5; k++) {
        const words = Array.from({ length: 9 + Math.floor(random() * 6) }, () => pick(WORDS));
        body.push(`${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`);
      }
      text = `${place}: ${subject} ${pick(ACTIONS)} ${object}. ${fill(pick(DETAILS))} ${body.join(' ')}`;
      const short = `${place}: ${subject} to ${object}`;
      title =
        i % 4 === 0
          ? `${short}, ending months of debate over cost and timing, as opponents vow to fight on in court`
          : short.charAt(0).toUpperCase() + short.slice(1);
    } else {
      const own = Array.from({ length: 30 }, () => pick(WORDS)).join(' ');
      text = `${fill(pick(lang === 'ru' ? RU : UK))} ${fill(pick(lang === 'ru' ? RU : UK))} ${own}.`;
      title = text.split(/[,.]/)[0] as string;
    }
    const copies = i % 9 === 0 ? 0 : 1 + Math.floor(random() * (i % 5 === 0 ? 8 : 4));
    const url = (k: number) => pick(HOSTS).replace('{i}', `${i}-${k}`).replace('{y}', '2026');
    out.push({
      id: `s${i}`,
      title: i === stories - 4 ? HOSTILE_TITLE : title,
      text,
      url: url(0),
      lang,
      ts: new Date(t0).toISOString(),
    });
    for (let c = 1; c <= copies; c++) {
      const kind = random();
      const copy =
        kind < 0.35
          ? `${pick(PLACES).toUpperCase()} (Wire) - ${text}`
          : kind < 0.7
            ? text.replace(/\b(\d+)\b/, (n) => String(Number(n) + 1))
            : `${text} ${fill(pick(DETAILS))}`;
      out.push({
        id: `s${i}-c${c}`,
        title: random() < 0.6 ? title : `${title} (update)`,
        text: copy,
        url: url(c),
        lang,
        ts: new Date(t0 + c * 3 * 60_000).toISOString(),
      });
    }
  }
  return out.sort((a, b) => a.ts.localeCompare(b.ts));
}
