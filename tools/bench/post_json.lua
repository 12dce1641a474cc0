-- wrk script: POST the JSON body in $BODY_FILE with the bearer token in $TOKEN.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
local f = assert(io.open(os.getenv("BODY_FILE"), "r"))
wrk.body = f:read("*a")
f:close()
