// The one reader of amounts a person types (screens and commands alike).
import { describe, expect, it } from 'vitest';
import { icuDigits, minorDigits, readTypedAmount, writeAmount } from '../src/shared/amounts';
import { typedToMinor } from '../src/main/ledger/core/money';
import { mulDivRounded, taxInGross } from '../src/main/ledger/tax/lines';

const read = (text: string, mark: '.' | ',', currency = 'USD') => {
  const r = readTypedAmount(text, currency, mark);
  return r.ok ? r.minor : r.message;
};

describe('amounts as a person types them', () => {
  it("reads the issue's five inputs with a decimal point (USD)", () => {
    expect(read('1,250', '.')).toBe(125000);
    expect(read('-1,234.56', '.')).toBe(-123456);
    expect(read('1.234,56', '.')).toBe(123456);
    expect(read('1,25', '.')).toBe(125);
    expect(read('(45.00)', '.')).toBe(-4500);
  });

  it('reads them with a decimal comma (a Dutch organization, EUR), refusing the one that could be two numbers', () => {
    expect(read('1,250', ',', 'EUR')).toBe('"1,250" could mean 1.250,00 (a thousands comma), but this organization writes a decimal comma (1.234,56); type 1250 or 1,25');
    expect(read('-1,234.56', ',', 'EUR')).toBe(-123456);
    expect(read('1.234,56', ',', 'EUR')).toBe(123456);
    expect(read('1,25', ',', 'EUR')).toBe(125);
    expect(read('(45.00)', ',', 'EUR')).toBe(-4500);
    expect(read('1.250', ',', 'EUR')).toBe(125000);
    expect(read('1 234,56', ',', 'EUR')).toBe(123456);
    expect(read('€ -12,50', ',', 'EUR')).toBe(-1250);
  });

  it('refuses a point before three decimals where the currency has two, and says what it read', () => {
    expect(read('1.250', '.')).toBe('"1.250" could mean 1,250.00 (a thousands point), but this organization writes a decimal point (1,234.56); type 1250 or 1.25');
    expect(read('1.255', '.')).toBe('"1.255" could mean 1,255.00 (a thousands point), but this organization writes a decimal point (1,234.56); type 1255');
    expect(read('1.250', '.', 'KWD')).toBe(1250); // three decimals: the point is the decimal point
    expect(read('1,2345', '.')).toBe('"1,2345" reads as 1.2345, which has more decimals than USD has (2)');
  });

  it('understands signs, symbols, codes and groups, and refuses what is not an amount', () => {
    expect(read('$1,234.56', '.')).toBe(123456);
    expect(read('-$1,234.56', '.')).toBe(-123456);
    expect(read('1,234.56 USD', '.')).toBe(123456);
    expect(read('45-', '.')).toBe(-4500);
    expect(read("1'234.50", '.')).toBe(123450);
    expect(read('1,234,567', '.')).toBe(123456700);
    expect(read('1,250', '.', 'JPY')).toBe(1250);
    expect(read('0,5', '.')).toBe(50);
    expect(read('1,23,456', '.')).toMatch(/grouped in threes/);
    expect(read('12abc', '.')).toBe('"12abc" is not an amount');
    expect(read('', '.')).toMatch(/is empty/);
    expect(read('1e5', '.')).toBe('"1e5" is not an amount');
    expect(read('1000000000000', '.')).toMatch(/beyond the ledger's limit/);
  });

  it("writes amounts in the organization's way", () => {
    expect(writeAmount(-123456789, 'USD', '.')).toBe('-1,234,567.89');
    expect(writeAmount(123456789, 'EUR', ',')).toBe('1.234.567,89');
    expect(writeAmount(5, 'JPY', '.')).toBe('5');
    expect(writeAmount(5, 'USD', '.')).toBe('0.05');
  });

  it('reads a plain decimal (a file\'s "19.99") as the full reader does, and refuses what it refuses', () => {
    for (const currency of ['USD', 'JPY', 'KWD'])
      for (const text of ['85', '0.5', '19.99', '0012', '1.234', '123456789012', '1234567890123', '0.001', '7.']) {
        const full = readTypedAmount(text, currency, '.');
        const fast = (() => {
          try {
            return typedToMinor(text, currency, '.');
          } catch {
            return 'refused';
          }
        })();
        expect(fast, `${text} ${currency}`).toBe(full.ok ? full.minor : 'refused');
      }
  });
});

describe('a product divided and rounded half away from zero', () => {
  const reference = (a: number, b: number, d: number) => {
    const x = BigInt(a) * BigInt(b);
    const [ax, ay] = [x < 0n ? -x : x, BigInt(d)];
    const q = (ax * 2n + ay) / (ay * 2n);
    return Number(x < 0n ? -q : q);
  };

  it('equals exact BigInt arithmetic at the halves, at the edge of exact floating point and past it', () => {
    const cases: [number, number, number][] = [
      [5, 1, 10],
      [-5, 1, 10],
      [15, 1, 10],
      [-25, 1, 10],
      [4, 1, 10],
      [0, -7, 3],
      [2500, 19_99, 1000],
      [2 ** 52 - 1, 1, 1000],
      [2 ** 26 + 1, 2 ** 26 + 3, 1_200_000],
      [99_999_999_999_999, 200_000, 1_000_000],
      [-99_999_999_999_999, 200_000, 1_200_000],
    ];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let i = 0; i < 5000; i++) cases.push([random(2 ** 31) - 2 ** 30, random(400_000), 1 + random(2_000_000)]);
    for (const [a, b, d] of cases) expect(mulDivRounded(a, b, d), `${a} x ${b} / ${d}`).toBe(reference(a, b, d));
    expect(taxInGross(12_000, 200_000)).toBe(2000);
  });
});

describe("a currency's minor digits", () => {
  it("are the runtime's ICU answer for every currency it knows, read from our table without asking ICU", () => {
    const codes = Intl.supportedValuesOf('currency');
    expect(codes.length).toBeGreaterThan(100);
    expect(codes.filter((c) => minorDigits(c) !== icuDigits(c)).map((c) => `${c}: ours ${minorDigits(c)}, ICU ${icuDigits(c)}`)).toEqual([]);
    expect([minorDigits('USD'), minorDigits('JPY'), minorDigits('KWD'), minorDigits('HUF')]).toEqual([2, 0, 3, 0]);
  });

  it('asks ICU for a code it does not list (a historical currency)', () => {
    expect(Intl.supportedValuesOf('currency')).not.toContain('ESP');
    expect(minorDigits('ESP')).toBe(icuDigits('ESP'));
  });
});
