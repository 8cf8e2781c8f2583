// US state -> official unclaimed-property search site.
// Checked 2026-11-22 against stored copies of official state pages, NAUPA state pages, press releases and
// public code. See docs/state-sites.md for the evidence per state and open questions. No imports, no I/O.

export const US_STATE_CODES = [
  'AK',
  'AL',
  'AR',
  'AZ',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'IA',
  'ID',
  'IL',
  'IN',
  'KS',
  'KY',
  'LA',
  'MA',
  'MD',
  'ME',
  'MI',
  'MN',
  'MO',
  'MS',
  'MT',
  'NC',
  'ND',
  'NE',
  'NH',
  'NJ',
  'NM',
  'NV',
  'NY',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VA',
  'VT',
  'WA',
  'WI',
  'WV',
  'WY',
] as const;

export type UsStateCode = (typeof US_STATE_CODES)[number];

export const US_STATE_NAMES: Record<UsStateCode, string> = {
  AK: 'Alaska',
  AL: 'Alabama',
  AR: 'Arkansas',
  AZ: 'Arizona',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  IA: 'Iowa',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  MA: 'Massachusetts',
  MD: 'Maryland',
  ME: 'Maine',
  MI: 'Michigan',
  MN: 'Minnesota',
  MO: 'Missouri',
  MS: 'Mississippi',
  MT: 'Montana',
  NC: 'North Carolina',
  ND: 'North Dakota',
  NE: 'Nebraska',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NV: 'Nevada',
  NY: 'New York',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VA: 'Virginia',
  VT: 'Vermont',
  WA: 'Washington',
  WI: 'Wisconsin',
  WV: 'West Virginia',
  WY: 'Wyoming',
};

export const MULTIPLE_STATES_LABEL = 'Multiple States';

export type StateSite = { state: UsStateCode | typeof MULTIPLE_STATES_LABEL; name: string; url: string };

// One row per state: https URL of the page where a visitor searches (or the program's confirmed official
// landing page when no deeper search path could be confirmed). Comment = operating office.
export const STATE_SITES: Record<UsStateCode, string> = {
  // Alaska Department of Revenue, Treasury Division (Unclaimed Property Program)
  AK: 'https://unclaimedproperty.alaska.gov/app/claim-search',
  // Alabama State Treasurer's Office, Unclaimed Property Division
  AL: 'https://alabama.findyourunclaimedproperty.com/app/claim-search',
  // Arkansas Auditor of State (Great Arkansas Treasure Hunt)
  AR: 'https://www.claimitar.gov/app/claim-search',
  // Arizona Department of Revenue, Unclaimed Property Unit
  AZ: 'https://azdor.gov/unclaimed-property',
  // California State Controller's Office, Unclaimed Property Division
  CA: 'https://claimit.ca.gov/',
  // Colorado Department of the Treasury (Great Colorado Payback)
  CO: 'https://colorado.findyourunclaimedproperty.com/app/claim-search',
  // Office of the Connecticut State Treasurer, Unclaimed Property Division (CT Big List)
  CT: 'https://www.ctbiglist.gov/',
  // Delaware Department of Finance, Office of Unclaimed Property
  DE: 'https://unclaimedproperty.delaware.gov/app/claim-search',
  // Florida Department of Financial Services (CFO), Division of Unclaimed Property
  FL: 'https://www.fltreasurehunt.gov/',
  // Georgia Department of Revenue, Unclaimed Property Program
  GA: 'https://dor.georgia.gov/unclaimed-property-program',
  // Hawaii Department of Budget and Finance, Unclaimed Property Program
  HI: 'https://unclaimedproperty.ehawaii.gov/lilo/property-search.html',
  // Iowa Treasurer of State (Great Iowa Treasure Hunt)
  IA: 'https://www.greatiowatreasurehunt.gov/app/claim-search',
  // Idaho State Treasurer's Office, Unclaimed Property Division
  ID: 'https://yourmoney.idaho.gov/app/claim-search',
  // Illinois State Treasurer (I-Cash), Unclaimed Property Division
  IL: 'https://icash.illinoistreasurer.gov/app/claim-search',
  // Indiana Attorney General's Office, Unclaimed Property Division
  IN: 'https://indianaunclaimed.gov/',
  // Kansas State Treasurer, Unclaimed Property Division
  KS: 'https://kansascash.ks.gov/',
  // Kentucky State Treasury, Unclaimed Property Division
  KY: 'https://treasury.ky.gov/',
  // Louisiana Department of the Treasury, Unclaimed Property Division (Louisiana Cash Claim)
  LA: 'https://www.lacashclaim.org/',
  // Massachusetts State Treasurer, Unclaimed Property Division
  MA: 'https://www.findmassmoney.gov/app/claim-search',
  // Comptroller of Maryland, Unclaimed Property Unit
  MD: 'https://www.marylandtaxes.gov/unclaimed-property/',
  // Maine Office of the State Treasurer, Unclaimed Property
  ME: 'https://www.maineunclaimedproperty.gov/app/claim-search',
  // Michigan Department of Treasury, Unclaimed Property Division
  MI: 'https://unclaimedproperty.michigan.gov/app/claim-search',
  // Minnesota Department of Commerce, Unclaimed Property Program
  MN: 'https://mn.gov/commerce/consumers/your-money/find-missing-money/',
  // Missouri State Treasurer, Unclaimed Property
  MO: 'https://www.showmemoney.com/',
  // Mississippi State Treasurer, Unclaimed Property Division
  MS: 'https://treasury.ms.gov/',
  // Montana Department of Revenue, Unclaimed Property
  MT: 'https://mtrevenue.gov/unclaimed-property/',
  // North Carolina Department of State Treasurer, Unclaimed Property Division (NCCash)
  NC: 'https://www.nccash.com/',
  // North Dakota Department of Trust Lands, Unclaimed Property Division
  ND: 'https://unclaimedproperty.nd.gov/app/claim-search',
  // Nebraska State Treasurer, Unclaimed Property Division
  NE: 'https://www.nebraskalostcash.gov/',
  // New Hampshire State Treasury, Abandoned Property Division
  NH: 'https://www.findnhmoney.gov/app/claim-search',
  // New Jersey Department of the Treasury, Unclaimed Property Administration
  NJ: 'https://unclaimedfunds.nj.gov/app/claim-search',
  // New Mexico Taxation and Revenue Department, Unclaimed Property Office
  NM: 'https://nmclaims.unclaimedproperty.com/',
  // Nevada State Treasurer, Unclaimed Property Division
  NV: 'https://claims.nevadaunclaimedproperty.gov/',
  // New York Office of the State Comptroller, Office of Unclaimed Funds
  NY: 'https://osc.ny.gov/unclaimed-funds',
  // Ohio Department of Commerce, Division of Unclaimed Funds
  OH: 'https://com.ohio.gov/UnclaimedFunds',
  // Oklahoma State Treasurer, Unclaimed Property Division
  OK: 'https://yourmoney.ok.gov/',
  // Oregon State Treasury, Unclaimed Property Program
  OR: 'https://unclaimed.oregon.gov/app/claim-search',
  // Pennsylvania Treasury Department, Bureau of Unclaimed Property
  PA: 'https://www.patreasury.gov/unclaimed-property/',
  // Rhode Island Office of the General Treasurer, Unclaimed Property Division
  RI: 'https://findrimoney.com/app/claim-search',
  // South Carolina State Treasurer's Office, Unclaimed Property Program (Palmetto Payback)
  SC: 'https://treasurer.sc.gov/what-we-do/for-citizens/unclaimed-property-program/',
  // South Dakota State Treasurer, Unclaimed Property Division
  SD: 'https://sdtreasurer.gov/',
  // Tennessee Department of Treasury, Unclaimed Property Division
  TN: 'https://www.claimittn.gov/',
  // Texas Comptroller of Public Accounts, Unclaimed Property Division
  TX: 'https://www.claimittexas.gov/app/claim-search',
  // Utah Office of State Treasurer, Unclaimed Property Division
  UT: 'https://mycash.utah.gov/app/claim-search',
  // Virginia Department of the Treasury, Division of Unclaimed Property
  VA: 'https://www.vamoneysearch.gov/app/claim-search',
  // Vermont State Treasurer's Office, Unclaimed Property Division
  VT: 'https://www.missingmoney.vermont.gov/',
  // Washington State Department of Revenue, Unclaimed Property Section
  WA: 'https://ucp.dor.wa.gov/app/claim-search',
  // Wisconsin Department of Revenue (administers); Office of the State Treasurer (promotes)
  WI: 'https://statetreasurer.wi.gov/Pages/UnclaimedProperty.aspx',
  // West Virginia State Treasurer's Office, Unclaimed Property Division
  WV: 'https://www.wvunclaimedproperty.gov/app/claim-search',
  // Wyoming State Treasurer's Office, Unclaimed Property Division
  WY: 'https://mycash.wyo.gov/',
};

// National multi-state search (MissingMoney.com, endorsed by NAUPA). Used for unknown state, DC, territories.
export const MULTI_STATE_SITE_URL = 'https://www.missingmoney.com/';

const US_STATE_CODE_SET: ReadonlySet<string> = new Set(US_STATE_CODES);

export function isUsStateCode(value: string): value is UsStateCode {
  return US_STATE_CODE_SET.has(value);
}

// Case-insensitive code lookup. Unknown, missing, 'unknown', DC and anything else -> Multiple States.
export function getStateSite(state: string | null | undefined): StateSite {
  const code = (state ?? '').trim().toUpperCase();
  if (isUsStateCode(code)) {
    return { state: code, name: US_STATE_NAMES[code], url: STATE_SITES[code] };
  }
  return { state: MULTIPLE_STATES_LABEL, name: MULTIPLE_STATES_LABEL, url: MULTI_STATE_SITE_URL };
}
