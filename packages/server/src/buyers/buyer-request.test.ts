import { BUYER_LEAD_FIELDS, type BuyerField, type BuyerHttpDelivery, MASK } from '@uf/shared/buyers';
import { describe, expect, it } from 'vitest';
import {
  BUYER_USER_AGENT,
  buildRequest,
  fieldValues,
  isSecretHeader,
  maskRequest,
  type OfferedLead,
} from './buyer-request';

// The request offering a lead to a buyer (issue 34, ADR 069), byte for byte, for three buyers shaped
// like real ones (PX: JSON with the token in the body; boberdoo: a form; LeadExec: JSON with an api-key
// header), and what the log keeps of each.

const LEAD: OfferedLead = {
  ...(Object.fromEntries(BUYER_LEAD_FIELDS.map((f) => [f, null])) as OfferedLead),
  leadId: 'b3c1f0de-5a7e-4c2b-9d3f-0a1b2c3d4e5f',
  leadType: 'website',
  firstName: 'Jane',
  lastName: "O'Brien",
  email: ' Jane.Doe@Example.com ',
  phone: '(312) 555-0142',
  streetAddress: '1 Main St',
  city: 'Chicago',
  zipCode: '60614-1234',
  state: 'IL',
  birthMonth: '7',
  birthDay: '4',
  birthYear: '1956',
  birthDate: '1956-07-04',
  age: '70',
  consentGiven: 'true',
  consentAt: '2026-11-20T15:04:05.000Z',
  trustedFormUrl: 'https://cert.trustedform.com/abc123',
  ipAddress: '198.51.100.23',
  pageUrl: 'https://example.com/claim?x=1',
  createdAt: '2026-11-20T15:04:05.000Z',
};

const PX: { delivery: BuyerHttpDelivery; fields: BuyerField[] } = {
  delivery: {
    kind: 'http',
    method: 'POST',
    url: 'https://api.px.example/api/v3/leads/post',
    testUrl: 'https://sandbox.px.example/api/v3/leads/post',
    encoding: 'json',
    headers: { Accept: 'application/json' },
  },
  fields: [
    { to: 'ApiToken', value: 'px-7f3a9c2e5b1d4f60a8e2' },
    { to: 'Vertical', value: 'UnclaimedFunds' },
    { to: 'SubId', from: 'utmSource', transforms: ['default:organic'] },
    { to: 'ContactData.FirstName', from: 'firstName' },
    { to: 'ContactData.LastName', from: 'lastName' },
    { to: 'ContactData.Email', from: 'email', transforms: ['trim', 'lower'] },
    { to: 'ContactData.PhoneNumber', from: 'phone', transforms: ['digits'] },
    { to: 'ContactData.State', from: 'state' },
    { to: 'ContactData.ZipCode', from: 'zipCode', transforms: ['substr:0:5'] },
    { to: 'ContactData.IpAddress', from: 'ipAddress' },
    { to: 'Person.BirthDate', from: 'birthDate', transforms: ['date:YYYY-MM-DD'] },
    // The lead has no beneficiary: the field is left out, not sent as null or "".
    { to: 'Person.Beneficiary', from: 'beneficiary' },
    { to: 'TCPA.Consent', from: 'consentGiven', transforms: ['bool:true/false'] },
    { to: 'TCPA.TrustedFormCertUrl', from: 'trustedFormUrl' },
  ],
};

const BOBERDOO: { delivery: BuyerHttpDelivery; fields: BuyerField[] } = {
  delivery: {
    kind: 'http',
    method: 'POST',
    url: 'https://leads.bober.example/genericPostlead.php',
    encoding: 'form',
  },
  fields: [
    { to: 'TYPE', value: '31' },
    { to: 'SRC', value: 'unclaimedfunds' },
    { to: 'Key', value: 'b0b3rd00K3y9f8e7d6c5' },
    { to: 'First_Name', from: 'firstName' },
    { to: 'Last_Name', from: 'lastName' },
    { to: 'Email', from: 'email', transforms: ['trim', 'lower'] },
    { to: 'Phone', from: 'phone', transforms: ['digits'] },
    { to: 'Address', from: 'streetAddress' },
    { to: 'City', from: 'city' },
    { to: 'State', from: 'state' },
    { to: 'Zip', from: 'zipCode', transforms: ['substr:0:5'] },
    { to: 'IP_Address', from: 'ipAddress' },
    { to: 'Landing_Page', from: 'pageUrl' },
    { to: 'TCPA_Consent', from: 'consentGiven', transforms: ['bool:Yes/No'] },
  ],
};

const LEADEXEC: { delivery: BuyerHttpDelivery; fields: BuyerField[] } = {
  delivery: {
    kind: 'http',
    method: 'POST',
    url: 'https://api.leadexec.example/v1/leads?vid=1234&lsid=5678',
    encoding: 'json',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    secretHeaders: { 'api-key': 'le_live_5f2b8c1e9a7d4e3f' },
  },
  fields: [
    { to: 'LeadId', from: 'leadId' },
    { to: 'FirstName', from: 'firstName' },
    { to: 'LastName', from: 'lastName' },
    { to: 'Email', from: 'email', transforms: ['trim', 'lower'] },
    { to: 'PhoneNumber', from: 'phone', transforms: ['e164'] },
    { to: 'DOB', from: 'birthDate', transforms: ['date:MM/DD/YYYY'] },
    { to: 'State', from: 'state', transforms: ['stateName'] },
    { to: 'ZipCode', from: 'zipCode', transforms: ['substr:0:5'] },
  ],
};

describe('buildRequest', () => {
  it('builds the PX-like JSON post: dot paths nested, token in the body, missing values left out', () => {
    const req = buildRequest(PX.delivery, PX.fields, LEAD);
    expect(req).toEqual({
      method: 'POST',
      url: 'https://api.px.example/api/v3/leads/post',
      headers: {
        accept: 'application/json',
        'content-type': 'application/json',
        'user-agent': BUYER_USER_AGENT,
      },
      body:
        '{"ApiToken":"px-7f3a9c2e5b1d4f60a8e2","Vertical":"UnclaimedFunds","SubId":"organic",' +
        '"ContactData":{"FirstName":"Jane","LastName":"O\'Brien","Email":"jane.doe@example.com",' +
        '"PhoneNumber":"3125550142","State":"IL","ZipCode":"60614","IpAddress":"198.51.100.23"},' +
        '"Person":{"BirthDate":"1956-07-04"},' +
        '"TCPA":{"Consent":"true","TrustedFormCertUrl":"https://cert.trustedform.com/abc123"}}',
    });
    // A test post goes to the buyer's test URL, the same bytes otherwise.
    const test = buildRequest(PX.delivery, PX.fields, LEAD, { test: true });
    expect(test.url).toBe('https://sandbox.px.example/api/v3/leads/post');
    expect(test.body).toBe(req.body);
  });

  it('builds the boberdoo-like form post', () => {
    const req = buildRequest(BOBERDOO.delivery, BOBERDOO.fields, LEAD);
    expect(req).toEqual({
      method: 'POST',
      url: 'https://leads.bober.example/genericPostlead.php',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BUYER_USER_AGENT },
      body:
        'TYPE=31&SRC=unclaimedfunds&Key=b0b3rd00K3y9f8e7d6c5&First_Name=Jane&Last_Name=O%27Brien' +
        '&Email=jane.doe%40example.com&Phone=3125550142&Address=1+Main+St&City=Chicago&State=IL&Zip=60614' +
        '&IP_Address=198.51.100.23&Landing_Page=https%3A%2F%2Fexample.com%2Fclaim%3Fx%3D1&TCPA_Consent=Yes',
    });
    // A test post without a test URL goes to the live one.
    expect(buildRequest(BOBERDOO.delivery, BOBERDOO.fields, LEAD, { test: true }).url).toBe(req.url);
  });

  it('builds the LeadExec-like JSON post: api-key header, MM/DD/YYYY birthday, its own content type', () => {
    const req = buildRequest(LEADEXEC.delivery, LEADEXEC.fields, LEAD);
    expect(req).toEqual({
      method: 'POST',
      url: 'https://api.leadexec.example/v1/leads?vid=1234&lsid=5678',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'api-key': 'le_live_5f2b8c1e9a7d4e3f',
        'user-agent': BUYER_USER_AGENT,
      },
      body:
        '{"LeadId":"b3c1f0de-5a7e-4c2b-9d3f-0a1b2c3d4e5f","FirstName":"Jane","LastName":"O\'Brien",' +
        '"Email":"jane.doe@example.com","PhoneNumber":"+13125550142","DOB":"07/04/1956","State":"Illinois",' +
        '"ZipCode":"60614"}',
    });
  });

  it('appends query fields to the URL, keeping its own parameters, with no body', () => {
    const delivery: BuyerHttpDelivery = {
      kind: 'http',
      method: 'POST',
      url: 'https://track.example/post.do?lp_campaign_id=42&lp_s1=a%20b',
      encoding: 'query',
    };
    const fields: BuyerField[] = [
      { to: 'lp_key', value: 'abc123def456' },
      { to: 'first_name', from: 'firstName' },
      { to: 'email_address', from: 'email', transforms: ['trim'] },
      { to: 'missing', from: 'utmTerm' },
    ];
    expect(buildRequest(delivery, fields, LEAD)).toEqual({
      method: 'POST',
      url:
        'https://track.example/post.do?lp_campaign_id=42&lp_s1=a+b&lp_key=abc123def456&first_name=Jane' +
        '&email_address=Jane.Doe%40Example.com',
      headers: { 'user-agent': BUYER_USER_AGENT },
      body: null,
    });
    // No field at all: the URL as written.
    expect(buildRequest(delivery, [], LEAD).url).toBe(
      'https://track.example/post.do?lp_campaign_id=42&lp_s1=a%20b',
    );
  });

  it('puts a GET’s fields in the query string whatever the encoding, `to` as written', () => {
    const delivery: BuyerHttpDelivery = { ...PX.delivery, method: 'GET' };
    const req = buildRequest(delivery, PX.fields.slice(3, 5), LEAD);
    expect(req).toEqual({
      method: 'GET',
      url: 'https://api.px.example/api/v3/leads/post?ContactData.FirstName=Jane&ContactData.LastName=O%27Brien',
      headers: { accept: 'application/json', 'user-agent': BUYER_USER_AGENT },
      body: null,
    });
  });

  it('builds XML under the root element, every value escaped', () => {
    const delivery: BuyerHttpDelivery = {
      kind: 'http',
      method: 'POST',
      url: 'https://xml.buyer.example/post',
      encoding: 'xml',
      xmlRoot: 'LeadData',
    };
    const fields: BuyerField[] = [
      { to: 'Auth.Token', value: 't0k3n-abc' },
      { to: 'Contact.FirstName', from: 'firstName' },
      { to: 'Contact.LastName', value: `O'Brien & "Sons" <x/>` },
      { to: 'Contact.State', from: 'state', transforms: ['stateName'] },
      { to: 'Source', value: 'web' },
    ];
    const req = buildRequest(delivery, fields, LEAD);
    expect(req.headers['content-type']).toBe('application/xml');
    expect(req.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><LeadData><Auth><Token>t0k3n-abc</Token></Auth><Contact>' +
        '<FirstName>Jane</FirstName><LastName>O&apos;Brien &amp; &quot;Sons&quot; &lt;x/&gt;</LastName>' +
        '<State>Illinois</State></Contact><Source>web</Source></LeadData>',
    );
    // Without xmlRoot the root is <lead>; no fields is an empty root.
    expect(buildRequest({ ...delivery, xmlRoot: undefined }, [], LEAD).body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><lead></lead>',
    );
  });

  it('never lets a lead value change the body’s shape', () => {
    const hostile: OfferedLead = {
      ...LEAD,
      firstName: '","Payout":100,"x":"',
      lastName: '</FirstName><Price>0</Price><x>',
      city: 'a&b=c&Key=stolen',
    };
    const fields: BuyerField[] = [
      { to: 'FirstName', from: 'firstName' },
      { to: 'LastName', from: 'lastName' },
      { to: 'City', from: 'city' },
    ];
    const json = buildRequest({ ...PX.delivery, headers: {} }, fields, hostile).body as string;
    expect(JSON.parse(json)).toEqual({
      FirstName: '","Payout":100,"x":"',
      LastName: '</FirstName><Price>0</Price><x>',
      City: 'a&b=c&Key=stolen',
    });
    const form = buildRequest(BOBERDOO.delivery, fields, hostile).body as string;
    expect([...new URLSearchParams(form)]).toEqual([
      ['FirstName', '","Payout":100,"x":"'],
      ['LastName', '</FirstName><Price>0</Price><x>'],
      ['City', 'a&b=c&Key=stolen'],
    ]);
    const xml = buildRequest({ ...PX.delivery, encoding: 'xml' }, fields, hostile).body as string;
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><lead><FirstName>&quot;,&quot;Payout&quot;:100,&quot;x&quot;:&quot;' +
        '</FirstName><LastName>&lt;/FirstName&gt;&lt;Price&gt;0&lt;/Price&gt;&lt;x&gt;</LastName>' +
        '<City>a&amp;b=c&amp;Key=stolen</City></lead>',
    );
  });

  it('makes own properties of `__proto__` paths and pollutes nothing', () => {
    const fields: BuyerField[] = [
      { to: '__proto__.polluted', value: 'yes' },
      { to: 'constructor', value: 'c' },
    ];
    const req = buildRequest(PX.delivery, fields, LEAD);
    expect(req.body).toBe('{"__proto__":{"polluted":"yes"},"constructor":"c"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps the later of two fields at the same path', () => {
    const fields: BuyerField[] = [
      { to: 'A', value: 'x' },
      { to: 'A.B', value: 'y' },
      { to: 'C.D', value: 'z' },
      { to: 'C', value: 'w' },
      { to: 'E', value: '1' },
      { to: 'E', value: '2' },
    ];
    expect(buildRequest(PX.delivery, fields, LEAD).body).toBe('{"A":{"B":"y"},"C":"w","E":"2"}');
    // A form sends repeated names, as forms do.
    expect(buildRequest(BOBERDOO.delivery, fields.slice(4), LEAD).body).toBe('E=1&E=2');
  });

  it('lower-cases header names; a secret header wins a clash; the buyer may set its own user-agent', () => {
    const delivery: BuyerHttpDelivery = {
      ...BOBERDOO.delivery,
      headers: { 'X-Api-Key': 'placeholder', 'User-Agent': 'PartnerBot/2', 'X-Source': 'uf' },
      secretHeaders: { 'x-api-key': 'real-key' },
    };
    expect(buildRequest(delivery, [], LEAD).headers).toEqual({
      'x-api-key': 'real-key',
      'user-agent': 'PartnerBot/2',
      'x-source': 'uf',
      'content-type': 'application/x-www-form-urlencoded',
    });
  });

  it('refuses a transform the schema should have refused instead of posting the value untransformed', () => {
    expect(() => fieldValues([{ to: 'Email', from: 'email', transforms: ['sha1'] }], LEAD)).toThrow(
      /buyer field 'Email': unknown transform 'sha1'/,
    );
  });
});

describe('maskRequest', () => {
  it('masks the token in the PX body and keeps the body’s shape', () => {
    const masked = maskRequest(buildRequest(PX.delivery, PX.fields, LEAD), PX.delivery);
    expect(masked.body).toBe(
      '{"ApiToken":"••••","Vertical":"UnclaimedFunds","SubId":"organic",' +
        '"ContactData":{"FirstName":"Jane","LastName":"O\'Brien","Email":"jane.doe@example.com",' +
        '"PhoneNumber":"3125550142","State":"IL","ZipCode":"60614","IpAddress":"198.51.100.23"},' +
        '"Person":{"BirthDate":"1956-07-04"},' +
        '"TCPA":{"Consent":"true","TrustedFormCertUrl":"https://cert.trustedform.com/abc123"}}',
    );
    expect(masked.headers).toEqual({
      accept: 'application/json',
      'content-type': 'application/json',
      'user-agent': BUYER_USER_AGENT,
    });
    expect(masked.url).toBe('https://api.px.example/api/v3/leads/post');
  });

  it('masks the boberdoo key in the form body', () => {
    const masked = maskRequest(buildRequest(BOBERDOO.delivery, BOBERDOO.fields, LEAD), BOBERDOO.delivery);
    expect(masked.body).toBe(
      'TYPE=31&SRC=unclaimedfunds&Key=••••&First_Name=Jane&Last_Name=O%27Brien' +
        '&Email=jane.doe%40example.com&Phone=3125550142&Address=1+Main+St&City=Chicago&State=IL&Zip=60614' +
        '&IP_Address=198.51.100.23&Landing_Page=https%3A%2F%2Fexample.com%2Fclaim%3Fx%3D1&TCPA_Consent=Yes',
    );
  });

  it('masks the LeadExec api-key header and leaves its body alone', () => {
    const req = buildRequest(LEADEXEC.delivery, LEADEXEC.fields, LEAD);
    const masked = maskRequest(req, LEADEXEC.delivery);
    expect(masked.headers).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'api-key': MASK,
      'user-agent': BUYER_USER_AGENT,
    });
    expect(masked.body).toBe(req.body);
    expect(masked.url).toBe(req.url);
    // The request that is sent keeps its secret.
    expect(req.headers['api-key']).toBe('le_live_5f2b8c1e9a7d4e3f');
  });

  it('masks credential-named query parameters (the URL’s own too) and a password in the URL', () => {
    const delivery: BuyerHttpDelivery = {
      kind: 'http',
      method: 'GET',
      url: 'https://user:pa55word@track.example/post.do?lp_campaign_id=42&api_token=zzz',
      encoding: 'query',
    };
    const fields: BuyerField[] = [
      { to: 'lp_key', value: 'abc123def456' },
      { to: 'first_name', from: 'firstName' },
    ];
    const masked = maskRequest(buildRequest(delivery, fields, LEAD), delivery);
    expect(masked.url).toBe(
      'https://user:••••@track.example/post.do?lp_campaign_id=42&api_token=••••&lp_key=••••&first_name=Jane',
    );
    expect(masked.body).toBeNull();
  });

  it('masks credential-named elements in an XML body and writes it back the same way', () => {
    const delivery: BuyerHttpDelivery = {
      kind: 'http',
      method: 'POST',
      url: 'https://xml.buyer.example/post',
      encoding: 'xml',
      xmlRoot: 'LeadData',
    };
    const fields: BuyerField[] = [
      { to: 'Auth.User', value: 'uf' },
      { to: 'Password', value: 's3cret' },
      { to: 'Contact.FirstName', value: '  Jane & co  ' },
    ];
    const masked = maskRequest(buildRequest(delivery, fields, LEAD), delivery);
    expect(masked.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><LeadData><Auth><User>••••</User></Auth><Password>••••</Password>' +
        '<Contact><FirstName>  Jane &amp; co  </FirstName></Contact></LeadData>',
    );
  });

  it('masks headers that look like credentials even when not declared secret', () => {
    const delivery: BuyerHttpDelivery = {
      ...PX.delivery,
      headers: {
        Authorization: 'Basic dXNlcjpwYXNz',
        'X-Partner': 'Bearer abc',
        'X-Ref': 'a1b2c3d4e5f6g7h8i9j0k1',
        'X-Campaign': 'summer-sale',
      },
      secretHeaders: { 'X-Custom': 'short' },
    };
    expect(maskRequest(buildRequest(delivery, [], LEAD), delivery).headers).toEqual({
      authorization: MASK,
      'x-partner': MASK,
      'x-ref': MASK,
      'x-campaign': 'summer-sale',
      'x-custom': MASK,
      'content-type': 'application/json',
      'user-agent': BUYER_USER_AGENT,
    });
  });

  it('masks a body it cannot read back whole', () => {
    const req = { method: 'POST' as const, url: 'https://x.example/', headers: {}, body: 'not json' };
    expect(maskRequest(req, PX.delivery).body).toBe(MASK);
    expect(maskRequest(req, { ...PX.delivery, encoding: 'xml' }).body).toBe(MASK);
  });
});

describe('isSecretHeader', () => {
  it('knows credentials by name', () => {
    for (const name of [
      'Authorization',
      'api-key',
      'X-API-Key',
      'apikey',
      'api_key',
      'X-Auth-Token',
      'x-secret',
      'Password',
    ]) {
      expect(isSecretHeader(name, 'v'), name).toBe(true);
    }
  });

  it('knows credentials by value', () => {
    expect(isSecretHeader('x-whatever', 'Bearer eyJhbGciOi')).toBe(true);
    expect(isSecretHeader('x-whatever', 'Basic dXNlcjpwYXNz')).toBe(true);
    expect(isSecretHeader('x-whatever', 'sk_live_51HxYzAbCdEf0123')).toBe(true);
    expect(isSecretHeader('x-whatever', 'dGhpcyBpcyBhIHNlY3JldA==')).toBe(true);
  });

  it('leaves ordinary headers alone', () => {
    expect(isSecretHeader('accept', 'application/json')).toBe(false);
    expect(isSecretHeader('content-type', 'application/json; charset=utf-8')).toBe(false);
    expect(isSecretHeader('user-agent', BUYER_USER_AGENT)).toBe(false);
    expect(isSecretHeader('x-campaign', 'summer-sale-2026')).toBe(false); // under 20 characters
    expect(isSecretHeader('x-vertical', 'unclaimed-funds-and-assets')).toBe(false); // no digit
    expect(isSecretHeader('x-id', '12345678901234567890123')).toBe(false); // no letter
  });
});
