"""The person at the browser, for OAuth 2.0 tests: follows the URL Fathom printed, as a browser would.

    python oauth_browser.py code URL [--deny] [--wrong-state] [--wrong-challenge]
    python oauth_browser.py device VERIFICATION_URI USER_CODE [--deny]

`code` opens the authorization URL, submits the consent form (Allow, or Deny with --deny) and
follows the redirect to the loopback listener, printing its page. --wrong-state changes `state` in
the redirect before following it (a forged answer); --wrong-challenge changes the PKCE challenge in
the authorization URL before opening it, so the verifier Fathom later sends does not match.
`device` submits the user code at the verification page.
"""

import sys
import urllib.parse
import urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def code(url):
    if "--wrong-challenge" in sys.argv:
        parts = urllib.parse.urlsplit(url)
        query = [(k, "A" * 43 if k == "code_challenge" else v) for k, v in urllib.parse.parse_qsl(parts.query)]
        url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    urllib.request.urlopen(url, timeout=10).read()  # the consent page
    form = urllib.parse.urlencode({"confirm": "no" if "--deny" in sys.argv else "yes"}).encode()
    opener = urllib.request.build_opener(NoRedirect)
    try:
        opener.open(url, data=form, timeout=10)
        raise SystemExit("the consent form did not redirect")
    except urllib.error.HTTPError as redirect:
        location = redirect.headers["Location"]
    if "--wrong-state" in sys.argv:
        parts = urllib.parse.urlsplit(location)
        query = [(k, "forged" if k == "state" else v) for k, v in urllib.parse.parse_qsl(parts.query)]
        location = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query)))
    print(urllib.request.urlopen(location, timeout=10).read().decode())


def device(uri, user_code):
    form = urllib.parse.urlencode({"user_code": user_code, "confirm": "no" if "--deny" in sys.argv else "yes"})
    print(urllib.request.urlopen(uri, data=form.encode(), timeout=10).read().decode())


if __name__ == "__main__":
    if sys.argv[1] == "code":
        code(sys.argv[2])
    else:
        device(sys.argv[2], sys.argv[3])
