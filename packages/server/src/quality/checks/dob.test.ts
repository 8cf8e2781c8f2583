import { describe, expect, it } from 'vitest';
import { checkBirthDate, daysInMonth } from './dob';

describe('checkBirthDate', () => {
  it('accepts real dates, as the form’s strings or as numbers', () => {
    expect(checkBirthDate('02', '29', '1960')).toEqual([]);
    expect(checkBirthDate(2, 29, 2000)).toEqual([]); // divisible by 400
    expect(checkBirthDate(12, 31, 1994)).toEqual([]);
    expect(checkBirthDate('1', '1', '1940')).toEqual([]);
  });

  it('flags dates that do not exist', () => {
    expect(checkBirthDate(2, 30, 1960)).toEqual(['DOB_INVALID']);
    expect(checkBirthDate('04', '31', '1975')).toEqual(['DOB_INVALID']);
    expect(checkBirthDate(2, 29, 1963)).toEqual(['DOB_INVALID']);
    expect(checkBirthDate(2, 29, 1900)).toEqual(['DOB_INVALID']); // divisible by 100, not 400
    expect(checkBirthDate(13, 1, 1970)).toEqual(['DOB_INVALID']);
    expect(checkBirthDate(4, 0, 1980)).toEqual(['DOB_INVALID']);
    expect(checkBirthDate('x', '1', '1980')).toEqual(['DOB_INVALID']);
    expect(checkBirthDate(1.5, 1, 1980)).toEqual(['DOB_INVALID']);
  });

  it('counts February’s days by the leap-year rule', () => {
    expect([1944, 1948, 1992, 2000].map((y) => daysInMonth(y, 2))).toEqual([29, 29, 29, 29]);
    expect([1942, 1900, 1993].map((y) => daysInMonth(y, 2))).toEqual([28, 28, 28]);
  });
});
