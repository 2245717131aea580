module evalorder

go 1.22
