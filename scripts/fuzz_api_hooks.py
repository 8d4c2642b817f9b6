"""Schemathesis hooks for scripts/fuzz-api.sh: the check its unauthenticated run applies."""
import schemathesis


@schemathesis.check
def refused_without_token(ctx, response, case):
    """A request without a bearer token must be refused with 401, whatever its body or path.

    Only for the operation's own method: the coverage phase also tries methods the path does not
    serve (TRACE ...), which are 404 for anyone.
    """
    if case.method.upper() != case.operation.method.upper():
        return
    if response.status_code != 401:
        raise AssertionError(
            f"{case.method} {case.formatted_path} without a token answered {response.status_code}, not 401"
        )
