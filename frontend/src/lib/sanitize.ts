/**
 * Notice bodies are HTML written by the operator. Before they are shown, anything that could run
 * code is removed: script-like elements, event-handler attributes and javascript: URLs.
 */
const DROP_ELEMENTS = 'script,style,iframe,frame,object,embed,link,meta,base,form,input,button,textarea,select';
const URL_ATTRIBUTES = ['href', 'src', 'xlink:href', 'action', 'formaction'];

function isUnsafeUrl(value: string): boolean {
  // Browsers ignore whitespace and control characters inside the scheme.
  const scheme = value.replace(/[\s\u0000-\u001f]+/g, '').toLowerCase();
  return scheme.startsWith('javascript:') || scheme.startsWith('vbscript:') || scheme.startsWith('data:text/html');
}

export function sanitizeHtml(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  template.content.querySelectorAll(DROP_ELEMENTS).forEach((el) => el.remove());
  template.content.querySelectorAll('*').forEach((el) => {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || (URL_ATTRIBUTES.includes(name) && isUnsafeUrl(attr.value))) {
        el.removeAttribute(attr.name);
      }
    }
    if (el.tagName === 'A' && el.getAttribute('target') === '_blank') el.setAttribute('rel', 'noopener noreferrer');
  });
  return template.innerHTML;
}
