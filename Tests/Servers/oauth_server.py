"""An OAuth 2.0 authorization server nobody at Fathom wrote: Authlib's grants under Flask.

Authlib does the protocol — the authorization-code grant with PKCE required (RFC 7636), refresh
tokens (RFC 6749 §6), the device authorization grant (RFC 8628), client authentication by
`client_secret_basic`, `client_secret_post` or none — and this file only keeps its records in
memory, answers the consent pages a browser script submits, and serves RFC 8414 metadata at
/.well-known/oauth-authorization-server. A resource at /me answers a valid bearer token.

Clients: `cli` (public: no secret), `web` (confidential, secret `web-secret-…`). Any port on
127.0.0.1 is a registered redirect URI (RFC 8252 §7.3). Access tokens live --lifetime seconds
(default 4), so a test sees them renewed. The device endpoint's interval is 1 s; with
--slow-down the first poll of each device code is answered `slow_down`.

For the tests: GET /test/log lists what happened (grants issued by type, every access token
issued and the last refresh token, each poll's time, the refusals, every Authorization header /me
saw); POST /test/revoke revokes every access
token, so the next request gets a 401.

    python oauth_server.py [--lifetime S] [--slow-down]

It prints the port it listens on, then serves until killed.
"""

import secrets
import socket
import sys
import threading
import time
from urllib.parse import urlparse

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc8628 import DeviceAuthorizationEndpoint, DeviceCodeGrant
from flask import Flask, jsonify, request

LIFETIME = int(sys.argv[sys.argv.index("--lifetime") + 1]) if "--lifetime" in sys.argv else 4
SLOW_DOWN = "--slow-down" in sys.argv
WEB_SECRET = "web-secret-" + secrets.token_hex(8)

lock = threading.Lock()
log = {"grants": [], "polls": [], "me": [], "refused": []}
codes = {}  # authorization codes
tokens = {}  # access token -> Token
refresh_tokens = {}  # refresh token -> Token
devices = {}  # device code -> DeviceCredential
decisions = {}  # user code -> True (approved) / False (denied)
polled = set()  # device codes polled once


class User:
    id = 1
    name = "alice"

    def get_user_id(self):
        return self.id


ALICE = User()


class Client:
    def __init__(self, client_id, secret, auth_methods):
        self.client_id = client_id
        self.secret = secret
        self.auth_methods = auth_methods

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return None

    def get_allowed_scope(self, scope):
        allowed = {"read", "write", "profile"}
        return " ".join(s for s in (scope or "read").split() if s in allowed)

    def check_redirect_uri(self, redirect_uri):
        url = urlparse(redirect_uri)
        return url.scheme == "http" and url.hostname == "127.0.0.1" and url.path == "/callback"

    def check_client_secret(self, client_secret):
        return self.secret is not None and secrets.compare_digest(client_secret, self.secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return method in self.auth_methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return True


CLIENTS = {
    "cli": Client("cli", None, ["none"]),
    "web": Client("web", WEB_SECRET, ["client_secret_basic", "client_secret_post"]),
}


class AuthorizationCode:
    def __init__(self, code, client_id, redirect_uri, scope, challenge, method):
        self.code, self.client_id, self.redirect_uri, self.scope = code, client_id, redirect_uri, scope
        self.code_challenge, self.code_challenge_method = challenge, method

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope


class Token:
    def __init__(self, data, client_id):
        self.data, self.client_id, self.issued = data, client_id, time.time()
        self.revoked = False  # the refresh token
        self.access_revoked = False

    def check_client(self, client):
        return client.get_client_id() == self.client_id

    def get_scope(self):
        return self.data.get("scope", "")

    def get_expires_in(self):
        return self.data.get("expires_in", 0)

    def is_expired(self):
        return False  # refresh tokens do not expire here

    def is_revoked(self):
        return self.revoked

    def access_is_good(self):
        return not self.access_revoked and time.time() < self.issued + self.get_expires_in()


class DeviceCredential:
    def __init__(self, client_id, scope, data):
        self.client_id, self.scope = client_id, scope
        self.user_code, self.expires = data["user_code"], time.time() + data["expires_in"]

    def get_client_id(self):
        return self.client_id

    def get_scope(self):
        return self.scope

    def get_user_code(self):
        return self.user_code

    def is_expired(self):
        return time.time() > self.expires


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def save_authorization_code(self, code, req):
        with lock:
            codes[code] = AuthorizationCode(
                code, req.client.get_client_id(), req.payload.redirect_uri, req.scope,
                req.payload.data.get("code_challenge"), req.payload.data.get("code_challenge_method"))

    def query_authorization_code(self, code, client):
        with lock:
            item = codes.get(code)
        return item if item and item.client_id == client.get_client_id() else None

    def delete_authorization_code(self, authorization_code):
        with lock:
            codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return ALICE


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
    INCLUDE_NEW_REFRESH_TOKEN = True

    def authenticate_refresh_token(self, refresh_token):
        with lock:
            token = refresh_tokens.get(refresh_token)
        return token if token and not token.revoked else None

    def authenticate_user(self, refresh_token):
        return ALICE

    def revoke_old_credential(self, refresh_token):
        refresh_token.revoked = True


class DeviceGrant(DeviceCodeGrant):
    def query_device_credential(self, device_code):
        with lock:
            return devices.get(device_code)

    def query_user_grant(self, user_code):
        with lock:
            decision = decisions.get(user_code)
        return None if decision is None else (ALICE, decision)

    def should_slow_down(self, credential):
        with lock:
            first = credential.user_code not in polled
            polled.add(credential.user_code)
        return SLOW_DOWN and first


class DeviceEndpoint(DeviceAuthorizationEndpoint):
    INTERVAL = 1
    EXPIRES_IN = 120

    def get_verification_uri(self):
        return request.host_url + "device"

    def save_device_credential(self, client_id, scope, data):
        with lock:
            devices[data["device_code"]] = DeviceCredential(client_id, scope, data)


def save_token(data, req):
    token = Token(data, req.client.get_client_id())
    with lock:
        tokens[data["access_token"]] = token
        if "refresh_token" in data:
            refresh_tokens[data["refresh_token"]] = token
            log["last_refresh_token"] = data["refresh_token"]
        log.setdefault("access_tokens", []).append(data["access_token"])
        log["grants"].append(req.payload.grant_type)


app = Flask(__name__)
app.config["OAUTH2_TOKEN_EXPIRES_IN"] = {
    "authorization_code": LIFETIME, "refresh_token": LIFETIME,
    "urn:ietf:params:oauth:grant-type:device_code": LIFETIME,
}
app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
server = AuthorizationServer(app, query_client=CLIENTS.get, save_token=save_token)
server.register_grant(CodeGrant, [CodeChallenge(required=True)])
server.register_grant(RefreshGrant)
server.register_grant(DeviceGrant)
server.register_endpoint(DeviceEndpoint)


@app.get("/.well-known/oauth-authorization-server")
def metadata():
    base = request.host_url.rstrip("/")
    return jsonify({
        "issuer": base,
        "authorization_endpoint": base + "/authorize",
        "token_endpoint": base + "/token",
        "device_authorization_endpoint": base + "/device_authorization",
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post", "none"],
        "code_challenge_methods_supported": ["S256"],
        "grant_types_supported": [
            "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"],
    })


@app.route("/authorize", methods=["GET", "POST"])
def authorize():
    if request.method == "GET":
        server.get_consent_grant(end_user=ALICE)  # checks the request; raises on a bad one
        return "<form method=post><button name=confirm value=yes>Allow</button></form>"
    grant_user = ALICE if request.form.get("confirm") == "yes" else None
    return server.create_authorization_response(grant_user=grant_user)


@app.post("/token")
def issue_token():
    response = server.create_token_response()
    if response.status_code != 200:
        with lock:
            log["refused"].append(response.get_json(silent=True))
    return response


@app.post("/device_authorization")
def device_authorization():
    return server.create_endpoint_response("device_authorization")


@app.route("/device", methods=["GET", "POST"])
def device():
    if request.method == "GET":
        return "<form method=post><input name=user_code><button name=confirm value=yes>Allow</button></form>"
    with lock:
        decisions[request.form["user_code"]] = request.form.get("confirm") == "yes"
    return "done"


@app.before_request
def note_polls():
    if request.path == "/token" and request.form.get("grant_type", "").endswith("device_code"):
        with lock:
            log["polls"].append(time.time())


@app.get("/me")
def me():
    header = request.headers.get("Authorization", "")
    with lock:
        log["me"].append(header)
        token = tokens.get(header[7:]) if header.startswith("Bearer ") else None
    if not token or not token.access_is_good():
        return jsonify({"error": "invalid_token"}), 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'}
    return jsonify({"user": ALICE.name, "scope": token.get_scope(), "client": token.client_id})


@app.get("/test/log")
def test_log():
    with lock:
        return jsonify(log | {"web_secret": WEB_SECRET})


@app.post("/test/revoke")
def test_revoke():
    with lock:
        for token in tokens.values():
            token.access_revoked = True  # refresh tokens stay good
    return "revoked"


if __name__ == "__main__":
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    print(port, flush=True)
    import logging
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
    app.run(host="127.0.0.1", port=port, threaded=True)
