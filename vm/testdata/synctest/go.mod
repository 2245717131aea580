module example.com/synctestcase

go 1.25
