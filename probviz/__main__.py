from probviz.cli import main

raise SystemExit(main())
