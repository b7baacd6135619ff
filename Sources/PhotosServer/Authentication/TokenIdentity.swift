/// Who a request acts for, as an authenticator proved it: the principal,
/// and the bearer token that proved it (from the `Authorization` header or
/// the browser session), for what outlives the request's authentication
/// (an event stream proves it again as it goes).
struct TokenIdentity: Sendable {
    let principal: Principal
    let bearer: String
}
