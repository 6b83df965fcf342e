import { describe, expect, it } from 'vitest';
import { sanitizeNoticeHtml as clean } from './notice-html';

describe('notice content allow-list', () => {
  it('keeps the formatting the editor writes', () => {
    const html =
      '<h2>标题</h2><h3>小节</h3><p>正文 <strong>粗</strong> <em>斜</em> <s>删</s> <u>下划</u> <code>x=1</code></p>' +
      '<ul><li>一</li></ul><ol start="3"><li>三</li></ol><blockquote><p>引用</p></blockquote><hr />' +
      '<table><thead><tr><th colspan="2">表头</th></tr></thead><tbody><tr><td>1</td><td rowspan="2">2</td></tr></tbody></table>';
    expect(clean(html)).toBe(html);
  });

  it('drops scripts with their text, iframes, objects, forms and styles', () => {
    expect(
      clean(
        '<p>a</p><script>alert(1)</script><style>p{}</style><iframe src="https://e.com"></iframe><object data="x"></object><form><input></form>',
      ),
    ).toBe('<p>a</p>');
  });

  it('drops every event handler', () => {
    expect(clean('<p onclick="x()" onmouseover="y()">a</p><img src="https://e.com/a.png" onerror="z()" />')).toBe(
      '<p>a</p><img src="https://e.com/a.png" />',
    );
  });

  it('keeps http, https and mailto links, opened apart with rel noopener; others become text', () => {
    expect(clean('<a href="https://e.com/x" target="_self" title="t">ok</a>')).toBe(
      '<a href="https://e.com/x" target="_blank" title="t" rel="noopener noreferrer">ok</a>',
    );
    expect(clean('<a href="mailto:a@b.c">m</a>')).toBe(
      '<a href="mailto:a@b.c" target="_blank" rel="noopener noreferrer">m</a>',
    );
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'jav&#x09;ascript:alert(1)',
      ' javascript:alert(1)',
      'vbscript:x',
      'data:text/html,<script>alert(1)</script>',
      '//evil.example.com',
      '/api/blade-user/remove?ids=1',
    ])
      expect(clean(`<a href="${href}">x</a>`), href).toBe('<span>x</span>');
  });

  it('keeps http(s) images and raster data images only', () => {
    const png = 'data:image/png;base64,iVBORw0KGgo=';
    expect(clean(`<img src="${png}" alt="a" />`)).toBe(`<img src="${png}" alt="a" />`);
    for (const src of [
      'x.png',
      '/api/x',
      'javascript:alert(1)',
      'data:image/svg+xml;base64,PHN2Zz4=',
      'data:text/html;base64,PA==',
    ])
      expect(clean(`<p><img src="${src}" /></p>`), src).toBe('<p></p>');
  });

  it('keeps only alignment and colours in styles, never expressions or urls', () => {
    expect(clean('<p style="text-align:center;position:fixed;background:url(javascript:x)">a</p>')).toBe(
      '<p style="text-align:center">a</p>',
    );
    expect(clean('<span style="color:#d00;width:expression(alert(1))">b</span>')).toBe(
      '<span style="color:#d00">b</span>',
    );
    expect(clean('<span style="color:expression(alert(1))">c</span>')).toBe('<span>c</span>');
  });
});
