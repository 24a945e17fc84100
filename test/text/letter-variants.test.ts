import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/text/clean.js';
import { enclosedLetter, letterVariant } from '../../src/text/letter-variants.js';
import { foldLetters, letterRules } from '../../src/text/normalize.js';

const opts = { zwnj: 'join' as const };

describe('letter variants', () => {
  it('folds small capitals to the basic letters', () => {
    expect(cleanText('ᴘᴀʏᴘᴀʟ ꜱᴇᴄᴜʀɪᴛʏ ᴄʜᴇᴄᴋ ᴏɴ ʏᴏᴜʀ ᴀᴄᴄᴏᴜɴᴛ', opts)).toBe(
      'paypal security check on your account',
    );
    expect(cleanText('ǫᴜɪᴄᴋ ʙʀᴏᴡɴ ꜰᴏx ᴊᴜᴍᴘꜱ ᴏᴠᴇʀ ᴛʜᴇ ʟᴀᴢʏ ᴅᴏɢ', opts)).toBe(
      'quick brown fox jumps over the lazy dog',
    );
  });
  it('folds the phonetic alpha and script g, the estimated sign and the Weierstrass p inside a word', () => {
    expect(cleanText('ɑccount ɡift h℮re ℘olice', opts)).toBe('account gift here police');
  });
  it('folds the Latin letters TR39 takes for one basic letter: iota, v with hook, turned m', () => {
    expect(cleanText('lɩmɩted tɩme ʋpdate: ɯin now', opts)).toBe('limited time update: win now');
    // The dotless ı is a letter of Turkish: its words stay as written.
    expect(cleanText('tıklayın', opts)).toBe('tıklayın');
    expect(cleanText('бᴫаговҽщҽнскҽ', opts)).toBe('благовещенске');
  });
  it('folds IPA letters with a bar, hook or turn in every word, capitals too', () => {
    expect(cleanText('ʈɦɘ quɪck bɾɵwn fɵx ʝumpʂ ɵvɘɾ ʈɦɘ ɭɑʐy dɵg', opts)).toBe(
      'the quick brown fox jumps over the lazy dog',
    );
    // Ɵ and Ɦ lower-case to ɵ and ɦ, then fold.
    expect(cleanText('ƟFFER ꞪERE', opts)).toBe('offer here');
    expect(cleanText('Ɵffer ɱɘmbɘɾs', opts)).toBe('offer members');
  });
  it('keeps the letters of real alphabets that IPA also uses: Azerbaijani ə, African ɛ ɔ ɓ ɗ, Ukrainian і ї ґ', () => {
    expect(cleanText('Bakı şəhəri ɛwɔ ɓaɗi', opts)).toBe('bakı şəhəri ɛwɔ ɓaɗi');
    expect(cleanText('Їжак і ґанок', opts)).toBe('їжак і ґанок');
    expect(cleanText('François Müller, Dvořák, Łódź', opts)).toBe('françois müller, dvořák, łódź');
  });
  it('folds astral enclosed capitals, which NFKC leaves alone', () => {
    expect(cleanText('🅵🆁🅴🅴 🄲🄰🅂🄷 🅑🅞🅝🅤🅢', opts)).toBe('free cash bonus');
    expect(enclosedLetter('🅰')).toBe('a');
    expect(enclosedLetter('😀')).toBe('😀');
  });
  it('folds parenthesized letters to the letter, not to "(a)"', () => {
    expect(cleanText('⒱⒤⒜⒢⒭⒜ now', opts)).toBe('viagra now');
  });
  it('leaves every other letter as it is', () => {
    for (const ch of ['a', 'ą', 'ę', 'ç', 'ş', 'ș', 'ñ', 'ø', 'ß', 'ї', 'й', 'λ', 'ی'])
      expect(letterVariant(ch)).toBe(ch);
    expect(cleanText('Zażółć gęślą jaźń; Şişli; Țară', opts)).toBe('zażółć gęślą jaźń; şişli; țară');
  });
  it('the one-pass fold agrees with the letter rules on every variant', () => {
    const all = 'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢɑɡ℮℘ǫɩʋɯᴫҽɵɘɾɦʊɭɫɱɳʂʐɽɼʈɕʑʝɧ';
    expect(foldLetters(all, opts)).toBe(letterRules(all, opts));
    expect(foldLetters(all, opts)).toBe('abcdefghijklmnopqrstuvwyzagepqiuwлеoerhullmnszrrtczjh');
  });
});
