#!/usr/bin/env bash
# Fetches the codebases of the issue-report suites (evals/issues/*.toml) into target/issues/:
# for each bug report, the PyPI sdist of the release BEFORE its fix (the tree the report is
# asked against). `--with-fixed` also fetches the releases WITH the fixes, so that the
# expected files can be checked again with `diff -r target/issues/NAME-BEFORE
# target/issues/NAME-AFTER` (each case's comment names both releases).
#
# Every sdist comes from PyPI (`pip download --no-deps --no-binary :all:`), pinned by
# version and SHA-256, and is never committed; archives are kept in target/issues/cache/
# (a second run is offline). About 25 sdists: pip prepares each one's metadata, so a first
# run takes a few minutes.
#
#   bash evals/issues/fetch.sh && explore eval evals/issues
set -euo pipefail
# shellcheck source=../fetch-lib.sh
source "$(dirname "$0")/../fetch-lib.sh" target/issues

# The releases the reports are asked against (each case's `repo`): NAME VERSION SHA256.
pypi_list <<'LIST'
marshmallow 3.0.0 fa2d8a4b61d09b0e161a14acc5ad8ab7aaaf1477f3dd52819ddd6c6c8275733a
marshmallow 3.0.2 33155c0d25671e30243ead12f34f4b57949809eb43dc36c2c0eb9296be801ce1
marshmallow 3.0.3 51188df086da5c427c3c193faddf7f95857ee4053dbf2d083e5cbfd846b2fb29
marshmallow 3.1.0 c1e78710709733a553deff59ba90d72677684a32f5a998b68c44e67e3876f5cb
marshmallow 3.11.0 1d3b0699117f4e90b974824581a3743acaf2627d066a5b56611fea64c51fe309
marshmallow 3.12.0 77ce3097c06d93de37394e0e0bf217dacbb4eabe0b88129e315e10d8790b1354
marshmallow 3.12.1 8050475b70470cc58f4441ee92375db611792ba39ca1ad41d39cad193ea9e040
marshmallow 3.13.0 c67929438fd73a2be92128caa0325b1b5ed8b626d91a094d2f7f2771bf1f1c0e
marshmallow 3.19.0 90032c0fd650ce94b6ec6dc8dfeb0e3ff50c144586462c389b81a07205bedb78
marshmallow 3.20.0 8041431562ff1f3f2692a28ef3fa67edddd925b23159707415e0eddb3bb40b06
marshmallow 3.20.2 4c1daff273513dc5eb24b219a8035559dc573c8f322558ef85f5438ddd1236dd
marshmallow 3.21.0 20f53be28c6e374a711a16165fb22a8dc6003e3f7cda1285e3ca777b9193885b
marshmallow 3.21.1 4e65e9e0d80fc9e609574b9983cf32579f305c718afb30d7233ab818571768c3
arrow 0.13.1 6f54d9f016c0b7811fac9fb8c2c7fa7421d80c54dbdd75ffb12913c55db60b8a
arrow 0.14.4 47f37968afeaefd0ba3fe4d0c70dc830985f9ab11beeb381d4fc0e8f8151d3d6
arrow 0.14.5 0186026cfd94ca4fb773f30cc5398289a3027480d335e0e5c0d2772643763137
arrow 0.15.0 9b92a8e151e168b742a36b622deadf860d1686af8c5bbe46eca8da04b10fe92f
arrow 0.15.2 10257c5daba1a88db34afa284823382f4963feca7733b9107956bed041aff24f
arrow 0.15.4 e1a318a4c0b787833ae46302c02488b6eeef413c6a13324b3261ad320f21ec1e
arrow 0.15.6 eb5d339f00072cc297d7de252a2e75f272085d1231a3723f1026d1fa91367118
arrow 0.15.7 3f1a92b25bbee5f80cc8f6bdecfeade9028219229137c559c37335b4f574a292
arrow 0.16.0 92aac856ea5175c804f7ccb96aca4d714d936f1c867ba59d747a8096ec30e90a
arrow 1.2.1 c2dde3c382d9f7e6922ce636bf0b318a7a853df40ecb383b29192e6c5cc82840
LIST

# The releases with the fixes, for checking the expected files again with diff -r.
if [ "${1:-}" = --with-fixed ]; then
  pypi_list <<'LIST'
marshmallow 3.0.1 23f684b54b1955ebd5bdfbdda4062e438ef86218f14f1a356f570cdf0c016ab3
marshmallow 3.0.4 5d6412948383b8d628b9d267045e83a5c4c387300ee7d7d57edc93d375be2660
marshmallow 3.1.1 d89fd236e8fabf5808b6d7c344303fb308ba56891698ee7654cf7ff9f56ec4fc
marshmallow 3.11.1 16e99cb7f630c0ef4d7d364ed0109ac194268dde123966076ab3dafb9ae3906b
marshmallow 3.12.2 77368dfedad93c3a041cbbdbce0b33fac1d8608c9e2e2288408a43ce3493d2ff
marshmallow 3.14.0 bba1a940985c052c5cc7849f97da196ebc81f3b85ec10c56ef1f3228aa9cbe74
marshmallow 3.20.1 5d2371bbe42000f2b3fb5eaa065224df7d8f8597bc19a1bbfa5bfe7fba8da889
marshmallow 3.21.2 82408deadd8b33d56338d2182d455db632c6313aa2af61916672146bb32edc56
arrow 0.13.2 82dd5e13b733787d4eb0fef42d1ee1a99136dc1d65178f70373b3678b3181bfc
arrow 0.14.6 9f1503d359011a74cd41169652f0eb0232822f58c67c414229f4174a15ae71f9
arrow 0.15.1 c65ea9214403c77b09bd676cba3dcf1e0a396f5dfb316b811bb7f7e10d99e955
arrow 0.15.3 742c0086e6a5c033bb251bb675b82867aca7cf6bc19e635f8a34eeefccaac372
arrow 0.15.5 5390e464e2c5f76971b60ffa7ee29c598c7501a294bc9f5e6dadcb251a5d027b
arrow 0.15.8 edc31dc051db12c95da9bac0271cd1027b8e36912daf6d4580af53b23e62721a
arrow 0.17.0 ff08d10cda1d36c68657d6ad20d74fbea493d980f8b2d45344e00d6ed2bf6ed4
arrow 1.2.2 05caf1fd3d9a11a1135b2b6f09887421153b94558e5ef4d090b567b47173ac2b
LIST
fi
