/// The demo API's OpenAPI 3.1 description, served at `/openapi.json` and loaded by
/// `fathom --demo`: every route, with schemas its real responses keep (a test sends each and
/// checks them).
public enum DemoOpenAPI {
    public static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "Fathom demo API",
            "version": "1.0.0",
            "description": "Users, to-dos, bearer and OAuth2 authentication, and endpoints that misbehave on purpose."
          },
          "servers": [{"url": "/"}],
          "paths": {
            "/": {
              "get": {
                "operationId": "index", "summary": "What the demo has",
                "responses": {"200": {"description": "A map of the endpoints", "content": {"application/json": {"schema": {"type": "object", "additionalProperties": {"type": "string"}}}}}}
              }
            },
            "/login": {
              "post": {
                "operationId": "login", "summary": "Trade a username and password for a bearer token", "tags": ["auth"],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Login"}, "example": {"username": "ada", "password": "difference-engine"}}}},
                "responses": {
                  "200": {"description": "A token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Token"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/oauth/token": {
              "post": {
                "operationId": "oauthToken", "summary": "OAuth2 client credentials grant", "tags": ["auth"],
                "requestBody": {"required": true, "content": {"application/x-www-form-urlencoded": {"schema": {
                  "type": "object", "required": ["grant_type"],
                  "properties": {"grant_type": {"type": "string", "enum": ["client_credentials"]}, "client_id": {"type": "string"}, "client_secret": {"type": "string", "writeOnly": true}, "scope": {"type": "string"}, "ttl": {"type": "integer", "minimum": 1}}}}}},
                "responses": {
                  "200": {"description": "An access token", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OAuthToken"}}}},
                  "400": {"$ref": "#/components/responses/OAuthError"},
                  "401": {"$ref": "#/components/responses/OAuthError"}
                }
              }
            },
            "/logout": {
              "post": {
                "operationId": "logout", "summary": "Revoke the bearer token sent", "tags": ["auth"],
                "responses": {"204": {"description": "Revoked (or there was nothing to revoke)"}}
              }
            },
            "/me": {
              "get": {
                "operationId": "me", "summary": "The user the token belongs to", "tags": ["auth"], "security": [{"bearer": []}],
                "responses": {
                  "200": {"description": "The user", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "401": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/users": {
              "get": {
                "operationId": "listUsers", "summary": "A page of users", "tags": ["users"],
                "parameters": [
                  {"name": "page", "in": "query", "schema": {"type": "integer", "minimum": 1, "default": 1}},
                  {"name": "per_page", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10}},
                  {"name": "role", "in": "query", "schema": {"type": "string", "enum": ["admin", "member"]}}
                ],
                "responses": {
                  "200": {
                    "description": "The page; Link and X-Total-Count say where the others are",
                    "headers": {"X-Total-Count": {"schema": {"type": "integer"}}, "Link": {"schema": {"type": "string"}}},
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UserPage"}}}
                  }
                }
              },
              "post": {
                "operationId": "createUser", "summary": "Add a user", "tags": ["users"], "security": [{"bearer": []}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewUser"}}}},
                "responses": {
                  "201": {"description": "The user, with its Location", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "400": {"$ref": "#/components/responses/Problem"},
                  "401": {"$ref": "#/components/responses/Problem"},
                  "422": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/users/{id}": {
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
              "get": {
                "operationId": "getUser", "summary": "One user", "tags": ["users"],
                "responses": {
                  "200": {"description": "The user", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              },
              "put": {
                "operationId": "replaceUser", "summary": "Replace a user (name and email required)", "tags": ["users"], "security": [{"bearer": []}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewUser"}}}},
                "responses": {
                  "200": {"description": "The user", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"},
                  "404": {"$ref": "#/components/responses/Problem"}, "422": {"$ref": "#/components/responses/Problem"}
                }
              },
              "patch": {
                "operationId": "updateUser", "summary": "Change some of a user's fields", "tags": ["users"], "security": [{"bearer": []}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/UserChanges"}}}},
                "responses": {
                  "200": {"description": "The user", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/User"}}}},
                  "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              },
              "delete": {
                "operationId": "deleteUser", "summary": "Remove a user", "tags": ["users"], "security": [{"bearer": []}],
                "responses": {
                  "204": {"description": "Removed"},
                  "401": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/users/{id}/todos": {
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
              "get": {
                "operationId": "listTodos", "summary": "A user's to-dos", "tags": ["todos"],
                "responses": {
                  "200": {"description": "The to-dos", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Todo"}}}}},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              },
              "post": {
                "operationId": "addTodo", "summary": "Add a to-do", "tags": ["todos"], "security": [{"bearer": []}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["title"], "properties": {"title": {"type": "string", "minLength": 1}}}}}},
                "responses": {
                  "201": {"description": "The to-do", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Todo"}}}},
                  "400": {"$ref": "#/components/responses/Problem"}, "401": {"$ref": "#/components/responses/Problem"},
                  "404": {"$ref": "#/components/responses/Problem"}
                }
              }
            },
            "/accounts/{id}": {
              "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
              "get": {
                "operationId": "getAccount", "summary": "An account's balance", "tags": ["accounts"],
                "responses": {"200": {"$ref": "#/components/responses/Account"}, "404": {"$ref": "#/components/responses/Problem"}}
              },
              "put": {
                "operationId": "setBalance", "summary": "Set an account's balance", "tags": ["accounts"],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "integer"}}}}}},
                "responses": {"200": {"$ref": "#/components/responses/Account"}, "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"}}
              }
            },
            "/accounts/{id}/withdraw": {
              "post": {
                "operationId": "withdraw", "summary": "Withdraw from an account (with a deliberate race: check, wait, subtract)", "tags": ["accounts"],
                "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer", "minimum": 1}}}}}},
                "responses": {
                  "200": {"$ref": "#/components/responses/Account"},
                  "400": {"$ref": "#/components/responses/Problem"}, "404": {"$ref": "#/components/responses/Problem"},
                  "409": {"description": "Insufficient funds", "content": {"application/problem+json": {"schema": {"allOf": [{"$ref": "#/components/schemas/Problem"}, {"type": "object", "required": ["balance"], "properties": {"balance": {"type": "integer"}}}]}}}}
                }
              }
            },
            "/echo": {
              "get": {"operationId": "echo", "summary": "The request as the server received it", "tags": ["tools"], "responses": {"200": {"$ref": "#/components/responses/Echo"}}},
              "post": {"operationId": "echoPost", "summary": "The request as the server received it", "tags": ["tools"], "requestBody": {"content": {"*/*": {"schema": {}}}}, "responses": {"200": {"$ref": "#/components/responses/Echo"}}},
              "put": {"operationId": "echoPut", "summary": "The request as the server received it", "tags": ["tools"], "requestBody": {"content": {"*/*": {"schema": {}}}}, "responses": {"200": {"$ref": "#/components/responses/Echo"}}},
              "patch": {"operationId": "echoPatch", "summary": "The request as the server received it", "tags": ["tools"], "requestBody": {"content": {"*/*": {"schema": {}}}}, "responses": {"200": {"$ref": "#/components/responses/Echo"}}},
              "delete": {"operationId": "echoDelete", "summary": "The request as the server received it", "tags": ["tools"], "responses": {"200": {"$ref": "#/components/responses/Echo"}}}
            },
            "/upload": {
              "put": {"operationId": "upload", "summary": "Reads an upload of any size as it arrives: its length and CRC-32", "tags": ["tools"], "requestBody": {"content": {"*/*": {"schema": {}}}}, "responses": {"200": {"$ref": "#/components/responses/Upload"}}},
              "post": {"operationId": "uploadPost", "summary": "Reads an upload of any size as it arrives: its length and CRC-32", "tags": ["tools"], "requestBody": {"content": {"*/*": {"schema": {}}}}, "responses": {"200": {"$ref": "#/components/responses/Upload"}}}
            },
            "/slow": {
              "get": {
                "operationId": "slow", "summary": "Answers after a delay", "tags": ["tools"],
                "parameters": [{"name": "ms", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 1000}}],
                "responses": {"200": {"description": "How long it slept", "content": {"application/json": {"schema": {"type": "object", "required": ["slept_ms"], "properties": {"slept_ms": {"type": "integer"}}}}}}}
              }
            },
            "/events": {
              "get": {
                "operationId": "events", "summary": "Server-sent events: count of them (0: endless), one every ms", "tags": ["streams"],
                "parameters": [
                  {"name": "count", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 5}},
                  {"name": "ms", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 200}}
                ],
                "responses": {"200": {"description": "tick events, then done", "content": {"text/event-stream": {
                  "schema": {"type": "string"},
                  "itemSchema": {
                    "type": "object", "required": ["event", "data"],
                    "properties": {
                      "event": {"enum": ["tick", "done"]}, "id": {"type": "string"}, "retry": {"type": "integer"},
                      "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": {
                        "type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 1}, "of": {"type": "integer"}, "note": {"type": "string"}}}}
                    }
                  }
                }}}}
              }
            },
            "/stream": {
              "get": {
                "operationId": "stream", "summary": "JSON Lines: count log lines (0: endless), one every ms", "tags": ["streams"],
                "parameters": [
                  {"name": "count", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 100000, "default": 5}},
                  {"name": "ms", "in": "query", "schema": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 200}},
                  {"name": "message", "in": "query", "schema": {"type": "string"}},
                  {"name": "stamp", "in": "query", "description": "1 adds t, when the line was written (ns since 1970)", "schema": {"type": "integer", "enum": [0, 1]}}
                ],
                "responses": {"200": {"description": "One log line per line", "content": {"application/x-ndjson": {
                  "schema": {"type": "string"},
                  "itemSchema": {
                    "type": "object", "required": ["n", "level", "message"],
                    "properties": {"n": {"type": "integer", "minimum": 1}, "level": {"enum": ["info", "warn"]}, "message": {"type": "string"}, "t": {"type": "integer"}}
                  }
                }}}}
              }
            },
            "/ws": {
              "get": {
                "operationId": "webSocket", "summary": "WebSocket: a welcome, echoes, ticks pushed; {\"type\":\"close\",\"code\":4000} closes, {\"type\":\"drop\"} cuts it mid-message", "tags": ["streams"],
                "parameters": [
                  {"name": "ticks", "in": "query", "description": "tick messages the server pushes", "schema": {"type": "integer", "minimum": 0, "maximum": 1000000, "default": 0}},
                  {"name": "ms", "in": "query", "description": "between ticks", "schema": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 100}}
                ],
                "responses": {"101": {"description": "Switching Protocols: the conversation is WebSocket messages (`ws /ws`)"}, "426": {"$ref": "#/components/responses/Problem"}}
              }
            },
            "/status/{code}": {
              "get": {
                "operationId": "status", "summary": "Answers with the status asked for", "tags": ["tools"],
                "parameters": [{"name": "code", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 200, "maximum": 599}}],
                "responses": {"2XX": {"description": "The status, no body"}, "3XX": {"description": "The status, no body"}, "default": {"$ref": "#/components/responses/Problem"}}
              }
            },
            "/redirect/{n}": {
              "get": {
                "operationId": "redirect", "summary": "Redirects n times, then to /echo", "tags": ["tools"],
                "parameters": [{"name": "n", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 0}}],
                "responses": {"302": {"description": "Found", "headers": {"Location": {"schema": {"type": "string"}}}}, "200": {"$ref": "#/components/responses/Echo"}}
              }
            },
            "/large": {
              "get": {
                "operationId": "large", "summary": "A large JSON array", "tags": ["tools"],
                "parameters": [{"name": "mb", "in": "query", "schema": {"type": "number", "minimum": 0, "maximum": 512, "default": 1}}],
                "responses": {"200": {"description": "About mb megabytes of records", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Record"}}}}}}
              }
            },
            "/gzip": {
              "get": {
                "operationId": "gzip", "summary": "Gzipped when the client accepts it", "tags": ["tools"],
                "responses": {"200": {"description": "A compressible document", "content": {"application/json": {"schema": {"type": "object", "required": ["gzipped", "message"], "properties": {"gzipped": {"type": "boolean"}, "message": {"type": "string"}}}}}}}
              }
            },
            "/openapi.json": {
              "get": {
                "operationId": "openapi", "summary": "This description", "tags": ["tools"],
                "responses": {"200": {"description": "OpenAPI 3.1", "content": {"application/json": {"schema": {"type": "object", "required": ["openapi", "info", "paths"]}}}}}
              }
            }
          },
          "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "A token from POST /login or POST /oauth/token"}},
            "responses": {
              "Problem": {"description": "An RFC 9457 problem", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}},
              "OAuthError": {"description": "An OAuth2 error", "content": {"application/json": {"schema": {
                "type": "object", "required": ["error"], "properties": {"error": {"type": "string"}, "error_description": {"type": "string"}}}}}},
              "Echo": {"description": "The request as the server received it", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Echo"}}}},
              "Account": {"description": "The account and its balance", "content": {"application/json": {"schema": {
                "type": "object", "required": ["id", "balance"], "properties": {"id": {"type": "integer"}, "balance": {"type": "integer"}}}}}},
              "Upload": {"description": "What arrived", "content": {"application/json": {"schema": {"type": "object", "required": ["bytes", "crc32"], "properties": {"bytes": {"type": "integer"}, "crc32": {"type": "string", "pattern": "^[0-9a-f]{8}$"}}}}}}
            },
            "schemas": {
              "User": {
                "type": "object", "required": ["id", "name", "email", "role", "active"], "additionalProperties": false,
                "properties": {
                  "id": {"type": "integer", "minimum": 1, "readOnly": true},
                  "name": {"type": "string", "minLength": 1, "examples": ["Grace Hopper"]},
                  "email": {"type": "string", "format": "email", "examples": ["grace@example.com"]},
                  "role": {"type": "string", "enum": ["admin", "member"]},
                  "active": {"type": "boolean"}
                }
              },
              "NewUser": {
                "type": "object", "required": ["name", "email"],
                "properties": {
                  "name": {"type": "string", "minLength": 1, "examples": ["Grace Hopper"]},
                  "email": {"type": "string", "format": "email", "examples": ["grace@example.com"]},
                  "role": {"type": "string", "enum": ["member", "admin"], "default": "member"},
                  "active": {"type": "boolean"}
                }
              },
              "UserChanges": {
                "type": "object", "minProperties": 1,
                "properties": {"name": {"type": "string", "minLength": 1}, "email": {"type": "string", "format": "email"}, "role": {"type": "string", "enum": ["admin", "member"]}, "active": {"type": "boolean"}}
              },
              "UserPage": {
                "type": "object", "required": ["data", "page", "per_page", "total", "total_pages"],
                "properties": {
                  "data": {"type": "array", "items": {"$ref": "#/components/schemas/User"}},
                  "page": {"type": "integer", "minimum": 1}, "per_page": {"type": "integer", "minimum": 1, "maximum": 100},
                  "total": {"type": "integer", "minimum": 0}, "total_pages": {"type": "integer", "minimum": 1}
                }
              },
              "Todo": {
                "type": "object", "required": ["id", "userId", "title", "done"],
                "properties": {
                  "id": {"type": "integer"}, "userId": {"type": "integer"}, "title": {"type": "string"}, "done": {"type": "boolean"},
                  "createdAt": {"type": "string", "format": "date-time", "description": "When it was added through the API; the seeded ones have none"}
                }
              },
              "Login": {
                "type": "object", "required": ["username", "password"],
                "properties": {"username": {"type": "string", "examples": ["ada"]}, "password": {"type": "string", "format": "password", "writeOnly": true, "examples": ["difference-engine"]}}
              },
              "Token": {
                "type": "object", "required": ["token", "token_type", "expires_in"],
                "properties": {"token": {"type": "string"}, "token_type": {"const": "Bearer"}, "expires_in": {"type": "integer", "minimum": 1}}
              },
              "OAuthToken": {
                "type": "object", "required": ["access_token", "token_type", "expires_in"],
                "properties": {"access_token": {"type": "string"}, "token_type": {"const": "Bearer"}, "expires_in": {"type": "integer"}, "scope": {"type": "string"}}
              },
              "Problem": {
                "type": "object", "required": ["type", "title", "status"],
                "properties": {
                  "type": {"type": "string", "format": "uri"}, "title": {"type": "string"}, "status": {"type": "integer", "minimum": 100, "maximum": 599},
                  "detail": {"type": "string"},
                  "errors": {"type": "array", "items": {"type": "object", "required": ["field", "message"], "properties": {"field": {"type": "string"}, "message": {"type": "string"}}}}
                }
              },
              "Echo": {
                "type": "object", "required": ["method", "path", "query", "args", "headers", "bodyLength"],
                "properties": {
                  "method": {"type": "string"}, "path": {"type": "string"}, "query": {"type": "string"},
                  "args": {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "minItems": 2, "maxItems": 2}},
                  "headers": {"type": "array", "items": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "string"}], "minItems": 2, "maxItems": 2}},
                  "body": {"type": ["string", "null"]}, "bodyBase64": {"type": ["string", "null"]}, "bodyLength": {"type": "integer", "minimum": 0}
                }
              },
              "Record": {
                "type": "object", "required": ["id", "name", "email", "score", "active", "tags", "address"],
                "properties": {
                  "id": {"type": "integer"}, "name": {"type": "string"}, "email": {"type": "string", "format": "email"},
                  "score": {"type": "number"}, "active": {"type": "boolean"}, "tags": {"type": "array", "items": {"type": "string"}},
                  "address": {"type": "object", "required": ["city", "zip"], "properties": {"city": {"type": "string"}, "zip": {"type": "string", "pattern": "^[0-9]{5}$"}}}
                }
              }
            }
          }
        }
        """#
}
