import { describe, expect, it } from 'vitest';
import { detectLanguage, languageFromTag } from '../../src/text/language.js';

describe('detectLanguage', () => {
  it('tells Russian from Ukrainian by their own letters', () => {
    expect(detectLanguage('россия экспортировала зерно в этом году')).toBe('ru');
    expect(detectLanguage('україна експортувала зерно цього року, їжак і є')).toBe('uk');
  });
  it('detects Persian and English by script', () => {
    expect(detectLanguage('خبرگزاری فارس گزارش داد')).toBe('fa');
    expect(detectLanguage('petrol price hike ignites revolt')).toBe('en');
  });
  it('uses the majority script in mixed text', () => {
    expect(detectLanguage('компания apple представила новый iphone сегодня в москве')).toBe('ru');
  });
  it('is undetermined without letters', () => {
    expect(detectLanguage('12 34 !!')).toBe('und');
  });
});

describe('languageFromTag', () => {
  it('maps common tags', () => {
    expect(languageFromTag('ru-RU')).toBe('ru');
    expect(languageFromTag('UKR')).toBe('uk');
    expect(languageFromTag('per')).toBe('fa');
    expect(languageFromTag('de')).toBeUndefined();
    expect(languageFromTag(undefined)).toBeUndefined();
  });
});

describe('hostile tags', () => {
  it('lang "constructor" is und, not fatal', () => {
    // Every Object.prototype name, as is, in capitals and with a subtag: none is a language.
    for (const name of Object.getOwnPropertyNames(Object.prototype)) {
      for (const tag of [name, name.toUpperCase(), `${name}-RU`, `${name}_uk`]) {
        expect(languageFromTag(tag), tag).toBeUndefined();
      }
    }
  });
});
