import { describe, expect, it } from 'vitest';
import { checkNames } from './names';

describe('checkNames', () => {
  it('passes real names: apostrophes, hyphens, accents, short surnames, suffixes, other scripts', () => {
    for (const [first, last] of [
      ['Sean', "O'Neil"],
      ['Siobhán', 'O’Neil'],
      ['Karen', 'Smith-Allen'],
      ['Lucía', 'Martínez'],
      ['José', 'Núñez'],
      ['Thanh', 'Nguyen'],
      ['Wei', 'Ng'],
      ['Minh', 'Le'],
      ['Li', 'Xu'],
      ['Jian', 'Yu'],
      ['Mei', 'Wu'],
      ['Kim', 'Ly'],
      ['Anthony', "D'Angelo"],
      ['Robert', 'St. John'],
      ['Mary Jo', 'Smith'],
      ['Lynn', 'Glynn'],
      ['Patrick', 'Flynn'],
      ['Brynn', 'Lee'],
      ['Rhys', 'Llwyd'],
      ['Tsz', 'Wong'],
      ['Tracy', 'Sczcepanski'],
      ['Krzysztof', 'Strzelczyk'],
      ['Grzegorz', 'Brzęczyszczykiewicz'],
      ['Björk', 'Jónsdóttir'],
      ['Zoë', 'Kowalski'],
      ['Pieter', 'Van der Berg'],
      ['Maria', 'De La Cruz'],
      ['James', 'Carter Jr.'],
      ['William', 'Howard III'],
      ['Henry', 'Ford VIII'],
      ['John', 'Smith 3rd'],
      ['Malcolm', 'X'],
      ['Armen', 'Mkrtchyan'],
      ['Nathan', 'Rothschild'],
      ['Chloë', 'Hirschsprung'],
      ['Jana', 'Smrž'],
      ['Tadhg', 'Ó Briain'],
      ['Keʻala', 'Akana'],
      ['Nnamdi', 'Okafor'],
      ['Aaliyah', 'Aaronson'],
      ['王', '小明'],
      ['Дмитрий', 'Иванов'],
      ['Md', 'Rahman'],
    ]) {
      expect(checkNames(first!, last!), `${first} ${last}`).toEqual([]);
    }
  });

  it('passes real names that contain or equal a rude or placeholder word (Scunthorpe)', () => {
    for (const [first, last] of [
      ['Dick', 'Van Dyke'],
      ['Andrew', 'Cockburn'],
      ['Laura', 'Hancock'],
      ['Ellen', 'Weiner'],
      ['Yossi', 'Shitrit'],
      ['Priya', 'Dikshit'],
      ['Adebayo', 'Shittu'],
      ['Ali', 'Butt'],
      ['Marie', 'Cox'],
      ['Heinz', 'Kuntz'],
      ['Fanny', 'Koch'],
      ['Kike', 'Hernández'],
      ['Jon', 'Tester'],
      ['Joe', 'Sample'],
      ['Gabriel', 'Foo'],
      ['Bar', 'Cohen'],
      ['Hye-jin', 'Na'],
      ['Nil', 'Yılmaz'],
      ['Samuel', 'Doe'],
      ['Minnie', 'Jackson'],
      ['Donald', 'Duckworth'],
      ['Mickey', 'Rourke'],
      ['Rachel', 'Titsworth'],
    ]) {
      expect(checkNames(first!, last!), `${first} ${last}`).toEqual([]);
    }
  });

  it('flags placeholder and test names, whole or per field', () => {
    for (const [first, last] of [
      ['Asdf', 'Asdf'],
      ['Test', 'Test'],
      ['Mickey', 'Mouse'],
      ['MINNIE', 'MOUSE'],
      ['Donald', 'Duck'],
      ['John', 'Doe'],
      ['Jane', 'Doe'],
      ['John Q.', 'Public'],
      ['N/A', 'N/A'],
      ['Robert', 'n/a'],
      ['Na', 'Na'],
      ['Qwerty', 'Smith'],
      ['John', 'Test'],
      ['Test User', 'Smith'],
      ['Fake', 'Person'],
      ['First', 'Last'],
      ['Firstname', 'Lastname'],
      ['Foo', 'Bar'],
      ['Test', 'Tester'],
      ['Sample', 'Sample'],
      ['Null', 'Null'],
      ['None', 'Given'],
      ['xxx', 'Smith'],
      ['Abc', 'Abc'],
    ]) {
      expect(checkNames(first!, last!), `${first} ${last}`).toEqual(['NAME_TEST']);
    }
  });

  it('flags profanity as whole words, starred or in digits', () => {
    for (const [first, last] of [
      ['Fuck', 'You'],
      ['Shit', 'Head'],
      ['Jack', 'Motherfucker'],
      ['F*ck', 'Williams'],
      ['Sh1t', 'Johnson'],
      ['Kevin', 'A$$hole'],
      ['Mary', 'Fuck-Smith'],
    ]) {
      expect(checkNames(first!, last!), `${first} ${last}`).toEqual(['NAME_PROFANE']);
    }
  });

  it('flags keyboard mash, no vowels, long repeats, digits and names without letters', () => {
    for (const [first, last] of [
      ['Sdfghj', 'Brown'],
      ['Qwkjhd', 'Miller'],
      ['Aaaaron', 'Smith'],
      ['Lkjhg', 'Davis'],
      ['Asdkjhgf', 'Lee'],
      ['Asasas', 'Wilson'],
      ['Bcdfgh', 'Moore'],
      ['Maria', 'Hjkl'],
      ['Robert', '12345'],
      ['John2', 'Smith'],
      ['Linda', '!!!'],
      ['Ññññ', 'Smith'],
    ]) {
      expect(checkNames(first!, last!), `${first} ${last}`).toEqual(['NAME_GIBBERISH']);
    }
  });
});
