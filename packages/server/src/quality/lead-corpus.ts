import type { ReasonCode } from '@uf/shared/quality';
import { checkLeadFields, FIELD_REASON_CODES, type LeadFields } from './lead-checks';

// The labelled corpus of issue 33's "Done when": real-looking leads that must pass every field check,
// and bad leads that must get exactly their one reason. The people are invented; the ZIPs are real
// (one or more in each of the 50 states and DC); the phone numbers use real area codes and every
// format the lead schema's PHONE_PATTERN accepts. A real-looking address or number here may belong to
// someone: the corpus is only ever checked offline, never dialled or mailed.

type Row = [
  firstName: string,
  lastName: string,
  email: string | null,
  phone: string,
  zipCode: string | null,
  birthDate: string,
];

/** Birth date 'M/D/YYYY' into the lead's three fields: the form's strings on even rows, numbers on odd. */
function toLead([firstName, lastName, email, phone, zipCode, birthDate]: Row, index: number): LeadFields {
  const [month = '', day = '', year = ''] = birthDate.split('/');
  const asForm = index % 2 === 0;
  return {
    firstName,
    lastName,
    email,
    phone,
    zipCode,
    birthMonth: asForm ? month.padStart(2, '0') : Number(month),
    birthDay: asForm ? day.padStart(2, '0') : Number(day),
    birthYear: asForm ? year : Number(year),
  };
}

const GOOD_ROWS: Row[] = [
  // One per state and DC, in state order (AL … WY).
  ['Sean', "O'Neil", 'sean.oneil@gmail.com', '(205) 324-7781', '35203', '3/14/1958'],
  ['Siobhán', 'O’Neil', 'siobhan.oneil@yahoo.com', '907-276-4410', '99501', '7/2/1962'],
  ['Karen', 'Smith-Allen', 'ksmithallen@outlook.com', '602.254.8830', '85004', '11/23/1955'],
  ['Lucía', 'Martínez', 'lucia.martinez@hotmail.com', '501 372 6614', '72201', '2/29/1960'],
  ['José', 'Núñez', 'jose.nunez@icloud.com', '(415) 863-2290', '94103', '9/9/1971'],
  ['Thanh', 'Nguyen', 'thanh.nguyen@aol.com', '3032967435', '80202', '5/30/1966'],
  ['Wei', 'Ng', 'wei.ng@comcast.net', '+1 860 247 3318', '06103', '12/31/1949'],
  ['Minh', 'Le', 'minhle@att.net', '1-302-654-2207', '19801', '1/1/1950'],
  ['Li', 'Xu', 'li.xu@verizon.net', '+1-202-387-4126', '20009', '8/15/1975'],
  ['Jian', 'Yu', 'jianyu@live.com', '1.305.372.9844', '33130', '6/6/1983'],
  ['Mei', 'Wu', 'mei.wu@msn.com', '+14046587213', '30303', '10/10/1944'],
  ['Kim', 'Ly', 'kim.ly@me.com', '18085217742', '96813', '4/18/1968'],
  ['Anthony', "D'Angelo", 'anthony.dangelo@mac.com', '1 (208) 345-2281', '83702', '2/29/1964'],
  ['Robert', 'St. John', 'rstjohn@sbcglobal.net', '(312) 726-4493', '60601', '3/3/1947'],
  ['Mary Jo', 'Sullivan', 'maryjo.sullivan@gmail.com', '(317)634-8852', '46204', '7/4/1953'],
  ['Lynn', 'Glynn', 'lynn.glynn@yahoo.com', '515-282-9036', '50309', '9/22/1959'],
  ['Patrick', 'Flynn', 'pflynn@ksu.edu', '785.232.6645', '66603', '12/1/1961'],
  ['Brynn', 'Thompson', 'brynn.thompson@bellsouth.net', '(502) 584 7729', '40202', '1/17/1985'],
  ['Rhys', 'Llwyd', 'rhys.llwyd@cox.net', '504-523-6187', '70112', '5/5/1977'],
  ['Tsz', 'Wong', 'tsz.wong@gmail.com', '207 774 9032', '04101', '11/11/1988'],
  ['Krzysztof', 'Strzelczyk', 'k.strzelczyk@verizon.net', '410-539-2876', '21201', '6/30/1952'],
  ['Björk', 'Jónsdóttir', 'bjork.jonsdottir@outlook.com', '(617) 742-3390', '02108', '8/8/1969'],
  ['Zoë', 'Kowalski', 'zoe.kowalski@comcast.net', '313.961.4427', '48226', '10/31/1972'],
  ['Pieter', 'Van der Berg', 'pvanderberg@umn.edu', '+1 (612) 338-7104', '55401', '2/14/1957'],
  ['Maria', 'De La Cruz', 'maria.delacruz@yahoo.com', '601-948-3365', '39201', '4/1/1946'],
  ['James', 'Carter Jr.', 'jcarterjr@charter.net', '(314) 421-6658', '63101', '7/19/1963'],
  ['William', 'Howard III', 'whoward3@gmail.com', '406-442-8179', '59601', '3/25/1941'],
  ['Dick', 'Van Dyke', 'dick.vandyke@aol.com', '402-342-5590', '68102', '12/13/1945'],
  ['Laura', 'Hancock', 'laura.hancock@gmail.com', '(702) 384-2261', '89101', '9/30/1980'],
  ['Andrew', 'Cockburn', 'acockburn@dartmouth.edu', '603-224-3187', '03301', '1/29/1954'],
  ['Ellen', 'Weiner', 'eweiner@optonline.net', '973-623-4480', '07102', '6/21/1967'],
  ['Yossi', 'Shitrit', 'yshitrit@gmail.com', '505-982-4416', '87501', '11/5/1979'],
  ['Priya', 'Dikshit', 'priya.dikshit@gmail.com', '212-736-4392', '10001', '3/8/1986'],
  ['Jon', 'Tester', 'jtester@bellsouth.net', '919-832-5541', '27601', '8/21/1956'],
  ['Joe', 'Sample', 'joe.sample@midco.net', '701-223-8854', '58501', '2/9/1948'],
  ['Hye-jin', 'Na', 'hyejin.na@gmail.com', '614-228-3390', '43215', '5/17/1990'],
  ['Gabriel', 'Foo', 'gabriel.foo@yahoo.com', '405-235-7702', '73102', '10/2/1978'],
  ['Bar', 'Cohen', 'bar.cohen@outlook.com', '503-227-4458', '97204', '2/29/1972'],
  ['Ali', 'Butt', 'ali.butt@gmail.com', '215-568-3321', '19103', '7/7/1965'],
  ['Marie', 'Cox', 'marie.cox@cox.net', '401-421-9916', '02903', '12/25/1951'],
  ['Nnamdi', 'Okafor', 'nnamdi.okafor@gmail.com', '803-254-6673', '29201', '4/30/1982'],
  ['Aaliyah', 'Johnson', 'aaliyah.johnson@yahoo.com', '605-224-3398', '57501', '1/31/1994'],
  ['Armen', 'Mkrtchyan', 'armen.mkrtchyan@gmail.com', '615-256-4471', '37219', '9/1/1970'],
  ['Nathan', 'Rothschild', 'nrothschild@utexas.edu', '512-478-2293', '78701', '3/31/1961'],
  ['Tadhg', "O'Sullivan", 'tadhg.osullivan@gmail.com', '801-363-2275', '84111', '6/18/1976'],
  ['Jana', 'Smrž', 'jana.smrz@gmx.com', '802-223-4419', '05602', '8/31/1958'],
  ['Łukasz', 'Wróbel', 'lukasz.wrobel@gmail.com', '804-644-3367', '23219', '11/30/1984'],
  ['An', 'Nguyễn', 'an.nguyen@hotmail.com', '(206) 682-5542', '98101', '2/28/1966'],
  ['Chloë', 'Hirschsprung', 'chloe.h@frontier.com', '304-342-6685', '25301', '10/15/1957'],
  ['Saoirse', 'Brennan', 'saoirse.brennan@charter.net', '608-257-3341', '53703', '5/1/1989'],
  ['Renée', 'Wyatt', 'renee.wyatt@wyoming.com', '307-632-4459', '82001', '7/27/1948'],

  // More ZIPs, including ZIP+4 and a ZIP created in recent years (75036, Frisco TX).
  ['Ngozi', 'Adichie-Eze', 'ngozi.eze@gmail.com', '(334) 262-4418', '36104', '3/19/1974'],
  ['Kealoha', 'Kahananui', 'kealoha.k@hawaii.rr.com', '808.961.2234', '96720', '6/12/1960'],
  ['Carlos', 'Gutiérrez-Ramírez', 'cgutierrez@yahoo.com', '(520) 623-7789', '85701', '9/14/1967'],
  ['María José', 'Fernández', 'mj.fernandez@hotmail.com', '(213) 626-4471', '90012', '12/3/1979'],
  ['Daniel', 'Kim', 'daniel.kim+insurance@gmail.com', '(619) 234-6628', '92101', '4/24/1981'],
  ['Esperanza', 'Villalobos', 'evillalobos@att.net', '916-443-2219', '95814', '8/2/1952'],
  ['Priscilla', 'Ambrose', 'p.ambrose@mac.com', '(310) 274-6610', '90210-4412', '5/11/1943'],
  ['Mohammed', 'Al-Farsi', 'mohammed.alfarsi@outlook.com', '719-471-3382', '80903', '1/8/1987'],
  ['Md', 'Rahman', 'md.rahman@gmail.com', '203-787-4435', '06510', '10/19/1991'],
  ['Sun-Hee', 'Park', 'sunhee.park@yahoo.com', '302-736-2287', '19901', '2/29/1976'],
  ['Vy', 'Tran', 'vy.tran@gmail.com', '407-841-6632', '32801', '7/23/1984'],
  ['Quynh', 'Dang', 'quynh.dang@icloud.com', '850.224.3371', '32301', '3/5/1973'],
  ['Huynh', 'Pham', 'huynh.pham@comcast.net', '813-229-4457', '33602-1100', '11/17/1969'],
  ['Ji-woo', 'Lee', 'jiwoo.lee@gmail.com', '912-233-5520', '31401', '6/27/1988'],
  ['Llewellyn', 'Pryce', 'llewellyn.pryce@yahoo.com', '208-232-4476', '83201', '9/12/1950'],
  ['Gwyneth', 'Rhys', 'gwyneth.rhys@gmail.com', '217-544-3381', '62701', '1/26/1962'],
  ['Bryn', 'Evans', 'bryn.evans@sbcglobal.net', '(773) 528-4410', '60614', '4/9/1958'],
  ['Glyn', 'Davies', 'glyn.davies@outlook.com', '574-232-6681', '46601', '8/16/1971'],
  ['Wynn', 'Jones', 'wynn.jones@mchsi.com', '319-337-4429', '52240', '12/7/1955'],
  ['Srinivas', 'Chakravarthy', 'srinivas.c@gmail.com', '316-263-5574', '67202', '5/28/1980'],
  ['Lakshmi', 'Venkatasubramanian', 'lakshmi.venkat@yahoo.com', '859-253-4416', '40507', '2/17/1986'],
  ['Grzegorz', 'Szczygieł', 'g.szczygiel@gmail.com', '225-387-2294', '70802', '10/4/1964'],
  ['Wojciech', 'Chrzanowski', 'wchrzanowski@roadrunner.com', '207-622-3318', '04330', '7/30/1959'],
  ['Aleksandr', 'Shcherbakov', 'a.shcherbakov@gmail.com', '301-654-7720', '20814', '3/22/1970'],
  ['Yevgeny', 'Zhdanov', 'yzhdanov@hotmail.com', '508-756-3342', '01608', '11/2/1953'],
  ['Hiroshi', 'Tanaka', 'hiroshi.tanaka@gmail.com', '616-456-2281', '49503', '6/15/1947'],
  ['Yūko', 'Satō', 'yuko.sato@icloud.com', '651-224-5538', '55102', '9/28/1978'],
  ['Mary-Kate', "O'Brien-Smith", "mary-kate.o'brien@bostonlaw.com", '662-842-3306', '38801', '4/3/1983'],
  ['Ann Marie', 'St-Pierre', 'annmarie.stpierre@yahoo.com', '(816) 421-7745', '64105', '1/14/1961'],
  ['Kathleen', 'McGillicuddy', 'kmcgillicuddy@charter.net', '406-252-3319', '59101', '8/25/1949'],
  ['Angus', 'MacLeod', 'angus.macleod@gmail.com', '402-474-6621', '68508', '5/9/1966'],
  ['Aaron', 'Aaronson', 'aaron.aaronson@cox.net', '775-329-4413', '89501', '12/19/1974'],
  ['Jürgen', 'Müller', 'juergen.mueller@gmx.de', '603-625-2291', '03101', '2/29/1956'],
  ['François', 'Lefèvre', 'f.lefevre@hotmail.fr', '609-392-4458', '08608', '10/27/1963'],
  ['Søren', 'Kjær', 'soren.kjaer@outlook.com', '505-242-6637', '87102', '6/3/1982'],
  ['Oluwaseun', 'Adeyemi', 'seun.adeyemi@gmail.com', '716-852-3374', '14202', '3/11/1990'],
  ['Chukwuemeka', 'Obi', 'emeka.obi@yahoo.com', '518-465-2209', '12207', '7/21/1977'],
  ['Malcolm', 'X', 'malcolm.x@optonline.net', '718-625-3346', '11201', '5/19/1945'],
  ['Keʻala', 'Akana', 'keala.akana@hawaiiantel.net', '704-332-6618', '28202', '9/6/1969'],
  ['Ho', 'Ly', 'ho.ly@gmail.com', '701-232-4487', '58102', '1/23/1992'],
  ['Bo', 'Wu', 'bo.wu@att.net', '216-621-3349', '44113', '11/8/1958'],
  ['Lee', 'Ng', 'lee.ng@yahoo.com', '513-621-4426', '45202', '4/14/1973'],
  ['Xiaoling', 'Zhang', 'xiaoling.zhang@qq.com', '918-582-3315', '74103', '8/29/1985'],
  ['Nil', 'Yılmaz', 'nil.yilmaz@gmail.com', '971-254-6618', '97301', '2/2/1989'],
  ['Samuel', 'Doe', 'samuel.doe@gmail.com', '412-281-5532', '15222', '6/9/1951'],
  ['Minnie', 'Jackson', 'minnie.jackson@aol.com', '717-236-4470', '17101', '10/22/1942'],
  ['Donald', 'Duckworth', 'donald.duckworth@verizon.net', '843-723-5519', '29401', '3/28/1965'],
  ['Jarrah', 'Fucile', 'jarrah.fucile@gmail.com', '605-336-2294', '57104', '12/16/1980'],
  ['Adebayo', 'Shittu', 'adebayo.shittu@outlook.com', '901-527-3348', '38103', '5/24/1976'],
  ['Heinz', 'Kuntz', 'heinz.kuntz@gmail.com', '713-222-4491', '77002', '8/11/1957'],
  ['Fanny', 'Koch', 'fanny.koch@web.de', '214-742-3385', '75201', '1/4/1960'],
  ['Ming', 'Dong', 'ming.dong@163.com', '210-227-6614', '78205', '7/15/1971'],
  ['Charlotte', 'Dickens', 'c.dickens@gmail.com', '469-362-4478', '75036', '9/19/1988'],
  ['Rachel', 'Titsworth', 'rachel.titsworth@yahoo.com', '801-377-2259', '84601', '4/26/1967'],
  ['Ahmad', 'Assis', 'ahmad.assis@hotmail.com', '802-658-3341', '05401', '2/29/1980'],
  ['Alan', 'Cumming', 'alan.cumming@gmail.com', '703-549-2218', '22314', '11/27/1954'],
  ['Eoin', 'Ó Briain', 'eoin.obriain@gmail.com', '509-747-3364', '99201', '6/24/1961'],
  ['Tomáš', 'Hrdlička', 'tomas.hrdlicka@seznam.cz', '304-296-2278', '26505', '3/2/1974'],
  ['Przemysław', 'Przybylski', 'p.przybylski@wp.pl', '414-273-5521', '53202', '10/8/1983'],
  ['Taras', 'Tkachenko', 'taras.tkachenko@ukr.net', '307-234-6671', '82601', '8/5/1979'],
  ['Henrik', 'Mkhitaryan', 'henrik.m@mail.com', '907-452-3318', '99701', '5/13/1990'],
  ['Tracy', 'Sczcepanski', 'tracy.sczcepanski@email.com', '479-521-4436', '72701', '12/22/1958'],
  ['Keira', 'Knightley-Ross', 'keira.kr@yahoo.co.uk', '(928) 774-3392', '86001', '7/10/1986'],
  ['Isaac', 'Schwarzenegger', 'isaac.s@hotmail.co.uk', '(559) 485-2217', '93721', '1/19/1972'],

  // Providers, aliases and look-alike domains that are real, and no ZIP or no e-mail (partner leads).
  ['Olivia', 'Bennett', 'Olivia.Bennett@Gmail.com', '(530) 893-4412', '95926', '3/16/1975'],
  ['Ethan', 'Brooks', 'ethan.brooks@googlemail.com', '(531) 444-2381', '68102', '9/2/1968'],
  ['Sophia', 'Reyes', 'sophia.reyes@live.ca', '(520) 326-7719', null, '6/29/1982'],
  ['Mason', 'Hughes', 'mason.hughes@yahoo.ca', '(534) 232-6654', '', '4/11/1949'],
  ['Isabella', 'Ortiz', null, '415.863.2291', '94103', '10/5/1987'],
  ['Liam', 'Foster', 'liam.foster@att.com', '(212)736-4393', '10001', '2/22/1963'],
  ['Ava', 'Sanders', 'ava.sanders@verizon.com', '(212).736.4394', '10001', '8/18/1970'],
  ['Noah', 'Price', 'noah.price@proton.me', '1 212 736 4395', '10001', '5/26/1944'],
  ['Emma', 'Barnes', 'emma.barnes@protonmail.com', '1(212)736-4396', '10001', '12/9/1953'],
  ['Lucas', 'Jenkins', 'lucas.jenkins@earthlink.net', '+1.212.736.4397', '10001', '7/1/1966'],
  ['Mia', 'Perry', 'mia.perry@windstream.net', '+1(212)736-4398', '10001', '1/30/1978'],
  ['Elijah', 'Powell', 'elijah.powell@juno.com', '212.736-4399', '10001', '3/9/1985'],
  ['Harper', 'Long', 'harper.long@ymail.com', '212-7364401', '10001', '9/25/1959'],
  ['Logan', 'Patterson', 'logan.patterson@rocketmail.com', '212736-4402', '10001', '6/7/1946'],
  ['Evelyn', 'Flores', 'evelyn.flores@aim.com', '(212)7364403', '10001', '11/14/1972'],
  ['Henry', 'Washington', 'henry.washington@mayoclinic.org', '+1 212-736-4404', '10001', '4/4/1961'],
  ['Abigail', 'Butler', 'abigail.butler@kp.org', '+1-(212) 736-4405', '10001', '2/29/1984'],
  ['Jack', 'Simmons', 'jack.simmons@state.mn.us', '1-(212) 736-4406', '10001', '10/13/1950'],
];

/** Good leads: no field check may hold or reject any of them. */
export const GOOD_LEADS: LeadFields[] = GOOD_ROWS.map(toLead);

/** Clean people the bad leads start from: each bad lead changes one field of one of them. */
const BASES = GOOD_ROWS.slice(0, 12).map(toLead);

let next = 0;
function bad(expect: ReasonCode, change: Partial<LeadFields>): { lead: LeadFields; expect: ReasonCode } {
  const base = BASES[next++ % BASES.length]!;
  return { lead: { ...base, ...change }, expect };
}

/** Bad leads: each gets exactly its expected field code and nothing else. */
export const BAD_LEADS: { lead: LeadFields; expect: ReasonCode }[] = [
  // Not a valid US number: unassigned area code, exchange starting 0 or 1, too short, Canada,
  // Jamaica, the UK, not a number.
  ...['(456) 243-6617', '212-123-4567', '212-034-5678', '212-243-661', '416-243-6617', '876-243-6617'].map(
    (phone) => bad('PHONE_INVALID', { phone }),
  ),
  bad('PHONE_INVALID', { phone: '+44 20 7946 0958' }),
  bad('PHONE_INVALID', { phone: 'call me' }),
  // Toll-free, premium rate, personal numbers.
  ...[
    '800-243-6617',
    '(833) 243-6617',
    '844.243.6617',
    '855 243 6617',
    '866-243-6617',
    '877-243-6617',
    '888-243-6617',
  ].map((phone) => bad('PHONE_NOT_PERSONAL', { phone })),
  ...['900-243-6617', '500-243-6617', '533-243-6617', '588-243-6617'].map((phone) =>
    bad('PHONE_NOT_PERSONAL', { phone }),
  ),
  // N11 exchanges.
  ...[
    '212-911-1234',
    '(404) 211-3094',
    '312-311-7788',
    '305-411-8823',
    '702-511-2267',
    '415-611-2034',
    '206-711-4432',
    '617-811-5520',
  ].map((phone) => bad('PHONE_N11', { phone })),
  // Fiction's 555-0100…0199 and directory assistance.
  ...[
    '(212) 555-0123',
    '312-555-0100',
    '415-555-0199',
    '702.555.0142',
    '+1 305 555 0111',
    '617-555-1212',
    '2065551212',
  ].map((phone) => bad('PHONE_FICTIONAL', { phone })),
  // Seven equal subscriber digits, or in sequence up or down.
  ...[
    '212-222-2222',
    '415-777-7777',
    '(305) 333-3333',
    '312-234-5678',
    '206-345-6789',
    '404-456-7890',
    '617-876-5432',
    '713-765-4321',
  ].map((phone) => bad('PHONE_PATTERN', { phone })),
  // Malformed addresses.
  ...[
    'maria.lopez@@gmail.com',
    'maria lopez@gmail.com',
    '.maria@gmail.com',
    'maria..lopez@gmail.com',
    'maria.@gmail.com',
    'maria@gmail',
    'maria@-gmail.com',
    'maria@gmail..com',
    'maria@gmail.c0m',
    'mariagmail.com',
    'maria@[192.168.0.1]',
    `${'m'.repeat(65)}@gmail.com`,
  ].map((email) => bad('EMAIL_INVALID', { email })),
  // Disposable mailboxes, subdomains and capitals included.
  ...[
    'ghost@mailinator.com',
    'ghost@inbox.mailinator.com',
    'Ghost@MAILINATOR.COM',
    'ghost@guerrillamail.com',
    'ghost@10minutemail.com',
    'ghost@yopmail.com',
    'ghost@sharklasers.com',
    'ghost@temp-mail.org',
    'ghost@trashmail.com',
  ].map((email) => bad('EMAIL_DISPOSABLE', { email })),
  // Reserved for examples and tests.
  ...[
    'someone@example.com',
    'someone@example.net',
    'someone@example.org',
    'someone@mail.example.com',
    'someone@acme.test',
    'someone@site.example',
    'someone@nowhere.invalid',
    'someone@localhost',
    'someone@box.localhost',
  ].map((email) => bad('EMAIL_RESERVED', { email })),
  // Slips on a major provider.
  ...[
    'linda.park@gmial.com',
    'linda.park@gmai.com',
    'linda.park@gmail.co',
    'linda.park@hotmial.com',
    'linda.park@yaho.com',
    'linda.park@yahooo.com',
    'linda.park@outlok.com',
    'linda.park@icloud.co',
    'linda.park@gmail.con',
    'linda.park@comcats.net',
  ].map((email) => bad('EMAIL_TYPO', { email })),
  // ZIPs that do not exist, or are not ZIPs.
  ...['00000', '99999', '11111', '33333', '88888', '19999', '00100', '00000-1234', '1234'].map((zipCode) =>
    bad('ZIP_UNKNOWN', { zipCode }),
  ),
  // Placeholders.
  ...[
    ['Asdf', 'Asdf'],
    ['Mickey', 'Mouse'],
    ['Minnie', 'Mouse'],
    ['Donald', 'Duck'],
    ['Test', 'Test'],
    ['John', 'Doe'],
    ['Jane', 'Doe'],
    ['N/A', 'N/A'],
    ['Robert', 'n/a'],
    ['Qwerty', 'Smith'],
    ['Fake', 'Name'],
    ['First', 'Last'],
    ['Foo', 'Bar'],
    ['Test', 'Tester'],
    ['Sample', 'Sample'],
    ['None', 'None'],
    ['xxx', 'xxx'],
    ['Abc', 'Abc'],
  ].map(([firstName, lastName]) => bad('NAME_TEST', { firstName, lastName })),
  // Profanity.
  ...[
    ['Fuck', 'You'],
    ['Shit', 'Head'],
    ['Jack', 'Motherfucker'],
    ['Dumbass', 'Miller'],
    ['F*ck', 'Williams'],
    ['Sh1t', 'Johnson'],
    ['Kevin', 'A$$hole'],
    ['Bitch', 'Please'],
  ].map(([firstName, lastName]) => bad('NAME_PROFANE', { firstName, lastName })),
  // Keyboard mash, no vowels, long repeats, digits.
  ...[
    ['Sdfghj', 'Brown'],
    ['Qwkjhd', 'Miller'],
    ['Aaaaron', 'Smith'],
    ['Lkjhg', 'Davis'],
    ['Asdkjhgf', 'Lee'],
    ['Asasas', 'Wilson'],
    ['Bcdfgh', 'Moore'],
    ['John', 'Zzzz'],
    ['Maria', 'Hjkl'],
    ['Robert', '12345'],
    ['Linda', '!!!'],
  ].map(([firstName, lastName]) => bad('NAME_GIBBERISH', { firstName, lastName })),
  // Dates that do not exist.
  ...[
    ['2', '30', '1960'],
    ['4', '31', '1975'],
    ['2', '29', '1963'],
    ['2', '29', '1942'],
    ['6', '31', '1980'],
    ['9', '31', '1955'],
    ['11', '31', '1970'],
    ['2', '31', '1988'],
    ['13', '1', '1970'],
    ['4', '0', '1980'],
  ].map(([birthMonth = '', birthDay = '', birthYear = '']) =>
    bad('DOB_INVALID', { birthMonth, birthDay, birthYear }),
  ),
  // Numbers, as a partner sends them: February 29 of 1900 never happened (not a leap year).
  bad('DOB_INVALID', { birthMonth: 2, birthDay: 29, birthYear: 1900 }),
];

/** The rows and columns of the confusion table: good leads, then each field code. */
export type ConfusionLabel = 'GOOD' | ReasonCode;

export type ConfusionTable = {
  /** Row labels: what the lead is (GOOD or the bad lead's expected code), in REASON_CODES order. */
  labels: ConfusionLabel[];
  /** Column labels: what the checks said (NONE for no code, else each field code). */
  columns: ('NONE' | ReasonCode)[];
  /** counts[row][column]: leads of that row given that code (a lead with two codes counts twice). */
  counts: Record<ConfusionLabel, Record<'NONE' | ReasonCode, number>>;
  /** Leads per row. */
  totals: Record<ConfusionLabel, number>;
  /** The table as Markdown, zero columns left out, for a note. */
  markdown: string;
};

/** Runs every corpus lead through the checks and tabulates expected against found codes. */
export function confusionTable(): ConfusionTable {
  const allow = { emailDomains: [], phones: [] };
  const columns = ['NONE' as const, ...FIELD_REASON_CODES];
  const labels: ConfusionLabel[] = [
    'GOOD',
    ...FIELD_REASON_CODES.filter((code) => BAD_LEADS.some((b) => b.expect === code)),
  ];
  const counts = Object.fromEntries(
    labels.map((label) => [label, Object.fromEntries(columns.map((c) => [c, 0]))]),
  ) as ConfusionTable['counts'];
  const totals = Object.fromEntries(labels.map((label) => [label, 0])) as ConfusionTable['totals'];
  const tally = (label: ConfusionLabel, lead: LeadFields) => {
    const { codes } = checkLeadFields(lead, allow);
    totals[label]++;
    if (codes.length === 0) counts[label].NONE++;
    for (const code of codes) counts[label][code]++;
  };
  for (const lead of GOOD_LEADS) tally('GOOD', lead);
  for (const { lead, expect } of BAD_LEADS) tally(expect, lead);

  const shown = columns.filter((c) => labels.some((label) => counts[label][c] > 0));
  const markdown = [
    `| lead (n) | ${shown.join(' | ')} |`,
    `| --- | ${shown.map(() => '---:').join(' | ')} |`,
    ...labels.map(
      (label) => `| ${label} (${totals[label]}) | ${shown.map((c) => counts[label][c]).join(' | ')} |`,
    ),
  ].join('\n');
  return { labels, columns, counts, totals, markdown };
}
